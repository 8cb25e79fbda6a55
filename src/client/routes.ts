import { ADMIN_METHODS, type AdminRoutes } from "./admin.ts";
import type { Get, None, PermissionCheck, Post } from "./route-shapes.ts";
import { TWO_FACTOR_METHODS, type TwoFactorRoutes } from "./two-factor.ts";
import type {
  AccessTokens,
  ApiKey,
  ApiKeyVerification,
  CreateApiKeyInput,
  CreatedApiKey,
  CreateOrganizationInput,
  FullOrganization,
  Invitation,
  InvitationDetails,
  LinkedAccount,
  Member,
  Organization,
  OrganizationWithMembers,
  Permissions,
  PublicUser,
  Redirect,
  Session,
  SessionWithUser,
  SignInEmailInput,
  SignInEmailOutput,
  SignInSocialInput,
  SignInUsernameInput,
  SignUpEmailInput,
  Status,
  Success,
  Team,
  TeamMember,
  TokenAndUser,
  UpdateApiKeyInput,
  UpdateUserInput,
  UsernameSignInUser,
} from "./types.ts";

// A sign-in of a user with two-factor on answers { twoFactorRedirect: true } instead of the outputs below;
// the output types stay as they were (as Better Auth's do), so test an answer with isTwoFactorRedirect().
// Every route authd serves that an app calls (auth-service.md §2 and §7), keyed by path under the base
// path. GET routes take a query, POST routes a body. ROUTE_METHODS below is the runtime side of the same
// table; `satisfies` keeps the two in step.

type OrganizationScope = { organizationId?: string };

export interface AuthRoutes extends TwoFactorRoutes, AdminRoutes {
  "/ok": Get<None, { ok: boolean }>;
  "/ready": Get<None, { ready: boolean; database: boolean; secondaryStorage?: boolean }>;
  // session
  "/get-session": Get<{ disableCookieCache?: boolean; disableRefresh?: boolean }, SessionWithUser | null>;
  "/list-sessions": Get<None, Session[]>;
  "/revoke-session": Post<{ token: string }, Status>;
  "/revoke-sessions": Post<None, Status>;
  "/revoke-other-sessions": Post<None, Status>;
  "/sign-out": Post<None, Success>;
  // sign-up and sign-in
  "/sign-up/email": Post<SignUpEmailInput, TokenAndUser>;
  "/sign-in/email": Post<SignInEmailInput, SignInEmailOutput>;
  "/sign-in/username": Post<SignInUsernameInput, { token: string; user: UsernameSignInUser }>;
  "/sign-in/social": Post<
    SignInSocialInput,
    Redirect | { redirect: boolean; token: string; url?: string; user: PublicUser }
  >;
  // email verification and passwords
  "/send-verification-email": Post<{ email: string; callbackURL?: string }, Status>;
  "/verify-email": Get<{ token: string; callbackURL?: string }, Status & { user?: PublicUser | null }>;
  "/request-password-reset": Post<{ email: string; redirectTo?: string }, Status & { message?: string }>;
  "/forget-password": Post<{ email: string; redirectTo?: string }, Status & { message?: string }>;
  "/reset-password": Post<{ newPassword: string; token?: string }, Status>;
  "/change-password": Post<
    { newPassword: string; currentPassword: string; revokeOtherSessions?: boolean },
    { token: string | null; user: PublicUser }
  >;
  // the user
  "/update-user": Post<UpdateUserInput, Status>;
  "/change-email": Post<{ newEmail: string; callbackURL?: string }, Status>;
  "/delete-user": Post<{ callbackURL?: string; password?: string; token?: string }, Success & { message: string }>;
  "/delete-user/callback": Get<{ token: string; callbackURL?: string }, Success & { message: string }>;
  // linked accounts
  "/list-accounts": Get<None, LinkedAccount[]>;
  "/token": Get<None, { token: string }>;
  "/jwks": Get<None, { keys: { kty: string; alg: string; kid: string; [parameter: string]: string }[] }>;
  "/link-social": Post<
    {
      provider: string;
      callbackURL?: string;
      errorCallbackURL?: string;
      scopes?: string[];
      idToken?: SignInSocialInput["idToken"];
    },
    Redirect
  >;
  "/unlink-account": Post<{ providerId: string; accountId?: string }, Status>;
  "/get-access-token": Post<{ providerId: string; accountId?: string; userId?: string }, AccessTokens>;
  "/refresh-token": Post<{ providerId: string; accountId?: string; userId?: string }, AccessTokens>;
  "/account-info": Post<{ accountId: string }, { user: Record<string, unknown>; data: Record<string, unknown> }>;
  // organizations
  "/organization/create": Post<CreateOrganizationInput, OrganizationWithMembers>;
  "/organization/check-slug": Post<{ slug: string }, Status>;
  "/organization/update": Post<
    { data: Partial<Pick<Organization, "name" | "slug" | "logo" | "metadata">> } & OrganizationScope,
    Organization
  >;
  "/organization/delete": Post<{ organizationId: string }, Organization>;
  "/organization/list": Get<None, Organization[]>;
  "/organization/set-active": Post<{ organizationId?: string | null; organizationSlug?: string }, Organization | null>;
  "/organization/get-full-organization": Get<
    { organizationId?: string; organizationSlug?: string; membersLimit?: number },
    FullOrganization | null
  >;
  "/organization/invite-member": Post<
    { email: string; role: string | string[]; resend?: boolean; teamId?: string } & OrganizationScope,
    Invitation
  >;
  "/organization/accept-invitation": Post<{ invitationId: string }, { invitation: Invitation; member: Member }>;
  "/organization/reject-invitation": Post<{ invitationId: string }, { invitation: Invitation; member: null }>;
  "/organization/cancel-invitation": Post<{ invitationId: string }, Invitation>;
  "/organization/get-invitation": Get<{ id: string }, InvitationDetails>;
  "/organization/list-invitations": Get<OrganizationScope, Invitation[]>;
  "/organization/list-user-invitations": Get<{ email?: string }, Invitation[]>;
  "/organization/add-member": Post<
    { userId: string; role: string | string[]; teamId?: string } & OrganizationScope,
    Member
  >;
  "/organization/remove-member": Post<{ memberIdOrEmail: string } & OrganizationScope, { member: Member }>;
  "/organization/update-member-role": Post<{ memberId: string; role: string | string[] } & OrganizationScope, Member>;
  "/organization/get-active-member": Get<None, Member>;
  "/organization/get-active-member-role": Get<{ userId?: string } & OrganizationScope, { role: string }>;
  "/organization/leave": Post<{ organizationId: string }, Member>;
  "/organization/list-members": Get<
    { limit?: number; offset?: number } & OrganizationScope,
    { members: Member[]; total: number }
  >;
  "/organization/has-permission": Post<PermissionCheck & OrganizationScope, { success: boolean; error: string | null }>;
  "/organization/create-team": Post<{ name: string } & OrganizationScope, Team>;
  "/organization/remove-team": Post<{ teamId: string } & OrganizationScope, { message: string }>;
  "/organization/update-team": Post<{ teamId: string; data: Partial<Pick<Team, "name" | "organizationId">> }, Team>;
  "/organization/list-teams": Get<OrganizationScope, Team[]>;
  "/organization/set-active-team": Post<{ teamId?: string | null }, Team | null>;
  "/organization/list-user-teams": Get<None, Team[]>;
  "/organization/add-team-member": Post<{ teamId: string; userId: string }, TeamMember>;
  "/organization/remove-team-member": Post<{ teamId: string; userId: string }, { message: string }>;
  "/organization/list-team-members": Get<{ teamId?: string }, TeamMember[]>;
  // API keys
  "/api-key/create": Post<CreateApiKeyInput, CreatedApiKey>;
  "/api-key/verify": Post<{ key: string; permissions?: Permissions }, ApiKeyVerification>;
  "/api-key/get": Get<{ id: string }, ApiKey>;
  "/api-key/update": Post<UpdateApiKeyInput, ApiKey>;
  "/api-key/delete": Post<{ keyId: string }, Success>;
  "/api-key/list": Get<None, ApiKey[]>;
  "/api-key/delete-all-expired-api-keys": Post<None, { success: boolean; error: unknown }>;
}

export type AuthRoutePath = keyof AuthRoutes;
export type HttpMethod = "GET" | "POST";

const GET = "GET";
const POST = "POST";

/** The method of every known path; unknown paths: POST with a body, GET without (see proxy.ts). */
export const ROUTE_METHODS = {
  "/ok": GET,
  "/ready": GET,
  "/get-session": GET,
  "/list-sessions": GET,
  "/revoke-session": POST,
  "/revoke-sessions": POST,
  "/revoke-other-sessions": POST,
  "/sign-out": POST,
  "/sign-up/email": POST,
  "/sign-in/email": POST,
  "/sign-in/username": POST,
  "/sign-in/social": POST,
  "/send-verification-email": POST,
  "/verify-email": GET,
  "/request-password-reset": POST,
  "/forget-password": POST,
  "/reset-password": POST,
  "/change-password": POST,
  "/update-user": POST,
  "/change-email": POST,
  "/delete-user": POST,
  "/delete-user/callback": GET,
  "/list-accounts": GET,
  "/token": GET,
  "/jwks": GET,
  "/link-social": POST,
  "/unlink-account": POST,
  "/get-access-token": POST,
  "/refresh-token": POST,
  "/account-info": POST,
  "/organization/create": POST,
  "/organization/check-slug": POST,
  "/organization/update": POST,
  "/organization/delete": POST,
  "/organization/list": GET,
  "/organization/set-active": POST,
  "/organization/get-full-organization": GET,
  "/organization/invite-member": POST,
  "/organization/accept-invitation": POST,
  "/organization/reject-invitation": POST,
  "/organization/cancel-invitation": POST,
  "/organization/get-invitation": GET,
  "/organization/list-invitations": GET,
  "/organization/list-user-invitations": GET,
  "/organization/add-member": POST,
  "/organization/remove-member": POST,
  "/organization/update-member-role": POST,
  "/organization/get-active-member": GET,
  "/organization/get-active-member-role": GET,
  "/organization/leave": POST,
  "/organization/list-members": GET,
  "/organization/has-permission": POST,
  "/organization/create-team": POST,
  "/organization/remove-team": POST,
  "/organization/update-team": POST,
  "/organization/list-teams": GET,
  "/organization/set-active-team": POST,
  "/organization/list-user-teams": GET,
  "/organization/add-team-member": POST,
  "/organization/remove-team-member": POST,
  "/organization/list-team-members": GET,
  "/api-key/create": POST,
  "/api-key/verify": POST,
  "/api-key/get": GET,
  "/api-key/update": POST,
  "/api-key/delete": POST,
  "/api-key/list": GET,
  "/api-key/delete-all-expired-api-keys": POST,
  ...ADMIN_METHODS,
  ...TWO_FACTOR_METHODS,
} as const satisfies { [P in AuthRoutePath]: AuthRoutes[P]["method"] };

/** Paths after whose success the session may have changed: the session store refetches (§7). */
export function changesSession(path: string): boolean {
  return (
    path === "/sign-out" ||
    path === "/update-user" ||
    path.startsWith("/sign-in") ||
    path.startsWith("/sign-up") ||
    path === "/delete-user" ||
    path === "/verify-email" ||
    path.startsWith("/two-factor/verify-") ||
    path === "/two-factor/disable"
  );
}

/** The known method of a path; otherwise POST when there is a body, else GET. */
export function methodFor(path: string, body: Record<string, unknown>, requested?: HttpMethod): HttpMethod {
  const known = (ROUTE_METHODS as Record<string, HttpMethod>)[path];
  if (known) return known;
  if (requested) return requested;
  return Object.keys(body).length > 0 ? "POST" : "GET";
}
