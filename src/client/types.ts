// The wire shapes authd serves (auth-service.md §3 and §7), as the client sees them: ISO date strings
// arrive as Date objects (see json.ts). Written by hand from the spec; the route map is in routes.ts.

/** Extra user fields configured on the server come back beside the built-in ones. */
export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  image?: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Username feature. */
  username?: string | null;
  displayUsername?: string | null;
  /** Admin feature. */
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: Date | null;
  [field: string]: unknown;
}

export interface Session {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  ipAddress?: string | null;
  userAgent?: string | null;
  createdAt: Date;
  updatedAt: Date;
  activeOrganizationId?: string | null;
  activeTeamId?: string | null;
  impersonatedBy?: string | null;
}

export interface SessionWithUser {
  session: Session;
  user: User;
}

export interface LinkedAccount {
  id: string;
  providerId: string;
  accountId: string;
  userId?: string;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface TokenAndUser {
  /** Null when no session was created (auto sign-in off, or email verification required). */
  token: string | null;
  user: User;
}

export interface Status {
  status: boolean;
}

export interface Success {
  success: boolean;
}

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

// ---- organizations (§3, §7) ----

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo?: string | null;
  metadata?: Record<string, unknown> | null;
  createdAt: Date;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  /** One role, or several separated by commas. */
  role: string;
  createdAt: Date;
  teamId?: string | null;
  user?: Pick<User, "id" | "email" | "name" | "image">;
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: InvitationStatus;
  teamId?: string | null;
  inviterId: string;
  expiresAt: Date;
}

export interface InvitationDetails extends Invitation {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt?: Date | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

export interface OrganizationWithMembers extends Organization {
  members: Member[];
}

export interface FullOrganization extends Organization {
  members: Member[];
  invitations: Invitation[];
  teams?: Team[] | null;
}

// ---- API keys (§3, §5, §7) ----

/** Resource name → action names. */
export type Permissions = Record<string, string[]>;

export interface ApiKey {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  userId: string;
  refillInterval: number | null;
  refillAmount: number | null;
  lastRefillAt: Date | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  remaining: number | null;
  lastRequest: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  permissions: Permissions | null;
  metadata: Record<string, unknown> | null;
}

/** Only the create call shows the full key, once. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface ApiKeyVerification {
  valid: boolean;
  error: { message: string; code: string } | null;
  key: ApiKey | null;
}

// ---- admin ----

export interface UserList {
  users: User[];
  total: number;
  limit?: number;
  offset?: number;
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
