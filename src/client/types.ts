// The shapes authd serves, as the client sees them. The entities (users, sessions, organizations, API
// keys…) are written from the server's wire schemas into wire.ts, with dates as Date objects (json.ts
// revives them), as Better Auth's client hands them out. The route map is in routes.ts; request inputs
// and the few answers that are not entities are written below.

import type { TokenAndUser } from "./wire.ts";

export type * from "./wire.ts";

export interface Redirect {
  url: string;
  redirect: boolean;
}

export interface AccessTokens {
  accessToken?: string;
  accessTokenExpiresAt?: Date;
  refreshToken?: string;
  refreshTokenExpiresAt?: Date;
  scopes?: string[];
  idToken?: string;
  tokenType?: string;
}

// ---- inputs ----

export interface SignUpEmailInput {
  name: string;
  email: string;
  password: string;
  image?: string;
  callbackURL?: string;
  rememberMe?: boolean;
  username?: string;
  displayUsername?: string;
  /** Extra user fields configured on the server. */
  [field: string]: unknown;
}

export interface SignInEmailInput {
  email: string;
  password: string;
  callbackURL?: string;
  rememberMe?: boolean;
}

export interface SignInUsernameInput {
  username: string;
  password: string;
  rememberMe?: boolean;
}

export interface SignInSocialInput {
  provider: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  idToken?: { token: string; nonce?: string; accessToken?: string; refreshToken?: string; expiresAt?: number };
  scopes?: string[];
  requestSignUp?: boolean;
  loginHint?: string;
}

export interface SignInEmailOutput extends TokenAndUser {
  redirect: boolean;
  url?: string;
}

export interface UpdateUserInput {
  name?: string;
  image?: string | null;
  username?: string;
  displayUsername?: string;
  [field: string]: unknown;
}

export interface CreateApiKeyInput {
  name?: string;
  /** Seconds. */
  expiresIn?: number | null;
  userId?: string;
  prefix?: string;
  remaining?: number;
  refillAmount?: number;
  /** Days. */
  refillInterval?: number;
  rateLimitTimeWindow?: number;
  rateLimitMax?: number;
  rateLimitEnabled?: boolean;
  permissions?: Permissions;
  metadata?: Record<string, unknown>;
}

export interface UpdateApiKeyInput extends Omit<CreateApiKeyInput, "prefix" | "permissions"> {
  keyId: string;
  enabled?: boolean;
  permissions?: Permissions | null;
}

export interface CreateOrganizationInput {
  name: string;
  slug: string;
  logo?: string;
  metadata?: Record<string, unknown>;
  userId?: string;
  keepCurrentActiveOrganization?: boolean;
}

export interface ListUsersQuery {
  searchValue?: string;
  searchField?: "email" | "name";
  searchOperator?: "contains" | "starts_with" | "ends_with";
  limit?: number | string;
  offset?: number | string;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
  filterField?: string;
  filterValue?: string | number | boolean;
  filterOperator?: "eq" | "ne" | "lt" | "lte" | "gt" | "gte";
}
