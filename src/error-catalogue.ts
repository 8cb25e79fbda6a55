// The error catalogue. Every refusal authd sends is listed here once per (message, status): where one
// message answers with different statuses for different callers, each status is an entry of its own
// (the same message, so the same code), and the route answering it picks the entry (see a route's
// `refusals`). Services throw the plain entry and never choose a status. Codes are derived from messages
// the way the spec says (upper-case, spaces to underscores, other non-alphanumerics dropped) unless the
// spec fixes a code of its own (API keys).

export type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 415 | 422 | 429 | 500 | 503;

export interface CatalogueEntry {
  readonly message: string;
  readonly status: ErrorStatus;
  readonly code?: string;
}

export function codeFromMessage(message: string): string {
  return message
    .toUpperCase()
    .replace(/ /g, "_")
    .replace(/[^A-Z0-9_]/g, "");
}

const entries = {
  // Auth core
  USER_NOT_FOUND: { message: "User not found", status: 400 },
  /** The user an administrator acts on does not exist (admin routes). */
  TARGET_USER_NOT_FOUND: { message: "User not found", status: 404 },
  FAILED_TO_CREATE_USER: { message: "Failed to create user", status: 422 },
  FAILED_TO_CREATE_SESSION: { message: "Failed to create session", status: 500 },
  FAILED_TO_UPDATE_USER: { message: "Failed to update user", status: 500 },
  FAILED_TO_GET_SESSION: { message: "Failed to get session", status: 400 },
  INVALID_PASSWORD: { message: "Invalid password", status: 400 },
  INVALID_EMAIL: { message: "Invalid email", status: 400 },
  INVALID_EMAIL_OR_PASSWORD: { message: "Invalid email or password", status: 401 },
  SOCIAL_ACCOUNT_ALREADY_LINKED: { message: "Social account already linked", status: 400 },
  PROVIDER_NOT_FOUND: { message: "Provider not found", status: 404 },
  INVALID_TOKEN: { message: "invalid token", status: 400 },
  /** A delete-account token that is unknown, expired or another user's. */
  INVALID_DELETE_TOKEN: { message: "invalid token", status: 404 },
  /** An ID token a client sent for social sign-in that fails verification. */
  INVALID_ID_TOKEN: { message: "invalid token", status: 401 },
  ID_TOKEN_NOT_SUPPORTED: { message: "id_token not supported", status: 404 },
  FAILED_TO_GET_USER_INFO: { message: "Failed to get user info", status: 401 },
  /** A delete-account link followed without a session. */
  NO_SESSION_FOR_DELETE_LINK: { message: "Failed to get user info", status: 404 },
  USER_EMAIL_NOT_FOUND: { message: "User email not found", status: 401 },
  EMAIL_NOT_VERIFIED: { message: "Email not verified", status: 403 },
  PASSWORD_TOO_SHORT: { message: "Password too short", status: 400 },
  PASSWORD_TOO_LONG: { message: "Password too long", status: 400 },
  USER_ALREADY_EXISTS: { message: "User already exists", status: 422 },
  /** admin create-user answers a taken email with 400, where sign-up answers 422. */
  ADMIN_USER_ALREADY_EXISTS: { message: "User already exists", status: 400 },
  EMAIL_CAN_NOT_BE_UPDATED: { message: "Email can not be updated", status: 400 },
  CREDENTIAL_ACCOUNT_NOT_FOUND: { message: "Credential account not found", status: 400 },
  SESSION_EXPIRED: {
    message: "Session expired. Re-authenticate to perform this action.",
    status: 403,
    code: "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION",
  },
  SESSION_NOT_FRESH: { message: "Session is not fresh", status: 403 },
  FAILED_TO_UNLINK_LAST_ACCOUNT: { message: "You can't unlink your last account", status: 400 },
  ACCOUNT_NOT_FOUND: { message: "Account not found", status: 400 },
  SESSION_NOT_FOUND: { message: "Session not found", status: 400 },
  USER_ALREADY_HAS_PASSWORD_DELETE: {
    message: "User already has a password. Provide that to delete the account.",
    status: 400,
  },
  USER_ALREADY_HAS_PASSWORD: { message: "user already has a password", status: 400 },
  USER_CANNOT_BE_DELETED: { message: "User cannot be deleted. please provide a password or token.", status: 400 },
  EMAIL_PASSWORD_DISABLED: { message: "Email and password is not enabled", status: 400 },
  EMAIL_PASSWORD_SIGN_UP_DISABLED: { message: "Email and password sign up is not enabled", status: 400 },
  VERIFICATION_EMAIL_DISABLED: { message: "Verification email isn't enabled", status: 400 },
  RESET_PASSWORD_DISABLED: { message: "Reset password isn't enabled", status: 400 },
  CHANGE_EMAIL_DISABLED: { message: "Change email is disabled", status: 400 },
  EMAIL_IS_THE_SAME: { message: "Email is the same", status: 400 },
  COULDNT_UPDATE_EMAIL: { message: "Couldn't update your email", status: 400 },
  UNAUTHORIZED: { message: "Unauthorized", status: 401 },
  NOT_FOUND: { message: "Not Found", status: 404 },
  /** forward-auth: signed in, but not meeting the role or organization the proxy asks for. */
  ACCESS_DENIED: { message: "Access denied", status: 403 },
  TOO_MANY_REQUESTS: { message: "Too many requests. Please try again later.", status: 429 },
  PAYLOAD_TOO_LARGE: { message: "Request body is too large", status: 413 },
  UNSUPPORTED_MEDIA_TYPE: {
    message: "Content-Type must be application/json",
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
  },
  /** The same refusal on a route that also takes form posts (social callbacks). */
  UNSUPPORTED_FORM_MEDIA_TYPE: {
    message: "Content-Type must be application/json or application/x-www-form-urlencoded",
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
  },
  INTERNAL_SERVER_ERROR: { message: "Internal Server Error", status: 500 },
  SERVICE_UNAVAILABLE: { message: "Service unavailable", status: 503 },
  INVALID_CALLBACK_URL: { message: "Invalid callbackURL", status: 403 },
  INVALID_REDIRECT_URL: { message: "Invalid redirectURL", status: 403 },
  INVALID_ERROR_CALLBACK_URL: { message: "Invalid errorCallbackURL", status: 403 },
  INVALID_NEW_USER_CALLBACK_URL: { message: "Invalid newUserCallbackURL", status: 403 },
  INVALID_ORIGIN: { message: "Invalid origin", status: 403 },
  UNABLE_TO_CREATE_VERIFICATION: { message: "Unable to create verification", status: 500 },
  CALLBACK_URL_REQUIRED: { message: "callbackURL is required", status: 400 },
  HEADERS_REQUIRED: { message: "Headers is required", status: 400 },
  REQUEST_REQUIRED: { message: "Request is required", status: 400 },
  INVALID_BASE_URL: { message: "Invalid base URL", status: 400 },
  COULD_NOT_GET_ORIGIN: { message: "Could not get origin from request. Please provide a valid base URL.", status: 400 },
  INVALID_ACCESS_CONTROL_REQUEST: { message: "Invalid access control request", status: 400 },
  VALIDATION_ERROR: { message: "Invalid body parameters", status: 400, code: "VALIDATION_ERROR" },
  // Social sign-in and provider tokens
  ACCOUNT_NOT_LINKED: { message: "account not linked", status: 401 },
  SIGNUP_DISABLED: { message: "signup disabled", status: 401 },
  UNABLE_TO_CREATE_USER: { message: "unable to create user", status: 401 },
  UNABLE_TO_LINK_ACCOUNT: { message: "unable to link account", status: 401 },
  LINKING_NOT_ALLOWED: { message: "Account not linked - linking not allowed", status: 401 },
  LINKING_DIFFERENT_EMAILS: { message: "Account not linked - different emails not allowed", status: 401 },
  LINKING_FAILED: { message: "Account not linked - unable to create account", status: 400 },
  USER_ID_OR_SESSION_REQUIRED: { message: "Either userId or session is required", status: 400 },
  PROVIDER_NOT_SUPPORTED: { message: "Provider is not supported.", status: 400 },
  FAILED_TO_GET_ACCESS_TOKEN: { message: "Failed to get a valid access token", status: 400 },
  FAILED_TO_REFRESH_ACCESS_TOKEN: { message: "Failed to refresh access token", status: 400 },
  ACCESS_TOKEN_NOT_FOUND: { message: "Access token not found", status: 400 },
  PROVIDER_UNAVAILABLE: { message: "The provider could not be reached", status: 503 },
  // Account lifecycle: verify-email's error codes (answered as 401 when there is no callbackURL to redirect to)
  VERIFY_TOKEN_EXPIRED: { message: "token_expired", status: 401 },
  VERIFY_INVALID_TOKEN: { message: "invalid_token", status: 401 },
  VERIFY_USER_NOT_FOUND: { message: "user_not_found", status: 401 },
  VERIFY_UNAUTHORIZED: { message: "unauthorized", status: 401 },
  VERIFICATION_EMAIL_ALREADY_VERIFIED: {
    message: "You can only send a verification email to an unverified email",
    status: 400,
  },
  VERIFICATION_EMAIL_NOT_YOURS: { message: "You can only send a verification email to your own email", status: 400 },

  // Username
  INVALID_USERNAME_OR_PASSWORD: { message: "invalid username or password", status: 401 },
  USERNAME_EMAIL_NOT_VERIFIED: { message: "email not verified", status: 403 },
  UNEXPECTED_ERROR: { message: "unexpected error", status: 500 },
  USERNAME_IS_ALREADY_TAKEN: { message: "username is already taken. please try another.", status: 422 },
  USERNAME_TOO_SHORT: { message: "username is too short", status: 422 },
  USERNAME_TOO_LONG: { message: "username is too long", status: 422 },
  INVALID_USERNAME: { message: "username is invalid", status: 422 },

  // Admin
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE: { message: "You are not allowed to access resource", status: 403 },
  UNAUTHORIZED_TO_ACCESS_RESOURCE: { message: "unauthorized to access resource", status: 403 },
  YOU_CANNOT_BAN_YOURSELF: { message: "You cannot ban yourself", status: 400 },
  USER_IS_BANNED: { message: "User is banned", status: 401 },
  BANNED_USER: { message: "You have been banned from this application", status: 403, code: "BANNED_USER" },
  // Email one-time codes
  INVALID_OTP: { message: "Invalid OTP", status: 400 },
  OTP_EXPIRED: { message: "otp expired", status: 400 },
  TOO_MANY_ATTEMPTS: { message: "Too many attempts", status: 403 },
  YOU_CANNOT_REMOVE_YOURSELF: { message: "You cannot remove yourself", status: 400 },
  YOU_CANNOT_IMPERSONATE_ADMINS: { message: "You cannot impersonate admins", status: 403 },
  NOT_IMPERSONATING: { message: "You are not impersonating anyone", status: 400 },
  FAILED_TO_FIND_ADMIN_SESSION: { message: "Failed to find admin session", status: 400 },

  // Organization
  INVITATION_NOT_FOUND: { message: "Invitation not found", status: 400 },
  FAILED_TO_RETRIEVE_INVITATION: { message: "Failed to retrieve invitation", status: 400 },
  MEMBER_NOT_FOUND: { message: "Member not found", status: 400 },
  INVITER_IS_NO_LONGER_A_MEMBER: { message: "Inviter is no longer a member of the organization", status: 400 },
  ORGANIZATION_NOT_FOUND: { message: "Organization not found", status: 400 },
  ORGANIZATION_ID_REQUIRED: { message: "Organization ID is required", status: 400 },
  NO_ACTIVE_ORGANIZATION: { message: "No active organization", status: 400 },
  CANNOT_LEAVE_AS_ONLY_OWNER: { message: "You cannot leave the organization as the only owner", status: 400 },
  ORGANIZATION_ALREADY_EXISTS: { message: "Organization already exists", status: 400 },
  SLUG_IS_TAKEN: { message: "slug is taken", status: 400 },
  USER_IS_NOT_A_MEMBER: { message: "User is not a member of the organization", status: 400 },
  /** has-permission asked about an organization the caller is not a member of. */
  PERMISSION_CHECK_NOT_A_MEMBER: { message: "User is not a member of the organization", status: 401 },
  /** get-full-organization or set-active on an organization the caller is not a member of. */
  ORGANIZATION_ACCESS_NOT_A_MEMBER: { message: "User is not a member of the organization", status: 403 },
  TEAM_NOT_FOUND: { message: "Team not found", status: 400 },
  UNABLE_TO_REMOVE_LAST_TEAM: { message: "Unable to remove last team", status: 400 },
  NOT_AUTHENTICATED: { message: "Not authenticated", status: 401 },
  NOT_ALLOWED_TO_DELETE_MEMBER: { message: "You are not allowed to delete this member", status: 401 },
  ORG_USER_NOT_FOUND: { message: "User not found", status: 401, code: "USER_NOT_FOUND" },
  NOT_THE_RECIPIENT: { message: "You are not the recipient of the invitation", status: 403 },
  MEMBERSHIP_LIMIT_REACHED: { message: "Organization membership limit reached", status: 403 },
  NOT_ALLOWED_TO_CANCEL_INVITATION: { message: "You are not allowed to cancel this invitation", status: 403 },
  NOT_A_MEMBER_OF_ORGANIZATION: { message: "You are not a member of this organization", status: 403 },
  NOT_ALLOWED_TO_CREATE_ORGANIZATION: { message: "You are not allowed to create a new organization", status: 403 },
  ORGANIZATION_LIMIT_REACHED: { message: "You have reached the maximum number of organizations", status: 403 },
  NOT_ALLOWED_TO_UPDATE_ORGANIZATION: { message: "You are not allowed to update this organization", status: 403 },
  NOT_ALLOWED_TO_DELETE_ORGANIZATION: { message: "You are not allowed to delete this organization", status: 403 },
  NOT_ALLOWED_TO_DELETE_TEAM: { message: "You are not allowed to delete this team", status: 403 },
  NOT_ALLOWED_TO_DELETE_TEAMS: { message: "You are not allowed to delete teams in this organization", status: 403 },
  NOT_ALLOWED_TO_UPDATE_TEAM: { message: "You are not allowed to update this team", status: 403 },
  // Organization refusals Better Auth's organization plugin sends beyond the spec's list
  NOT_ALLOWED_TO_INVITE: { message: "You are not allowed to invite users to this organization", status: 403 },
  NOT_ALLOWED_TO_INVITE_WITH_ROLE: { message: "you are not allowed to invite user with this role", status: 403 },
  ALREADY_A_MEMBER: { message: "User is already a member of this organization", status: 400 },
  ALREADY_INVITED: { message: "User is already invited to this organization", status: 400 },
  INVITATION_LIMIT_REACHED: { message: "Invitation limit reached", status: 403 },
  NOT_ALLOWED_TO_UPDATE_MEMBER: { message: "You are not allowed to update this member", status: 403 },
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: {
    message: "Email verification required before accepting or rejecting invitation",
    status: 403,
  },
  TEAMS_NOT_ENABLED: { message: "Teams are not enabled", status: 400 },
  TEAM_LIMIT_REACHED: { message: "You have reached the maximum number of teams", status: 400 },
  TEAM_MEMBER_LIMIT_REACHED: { message: "Team member limit reached", status: 403 },
  NOT_ALLOWED_TO_CREATE_TEAMS: { message: "You are not allowed to create teams in this organization", status: 403 },
  NOT_ALLOWED_TO_ACCESS_ORGANIZATION: {
    message: "You are not allowed to access this organization as an owner",
    status: 403,
  },
  USER_IS_NOT_A_MEMBER_OF_TEAM: { message: "User is not a member of the team", status: 403 },
  /** list-team-members of a team the caller is not in. */
  TEAM_LIST_NOT_A_MEMBER: { message: "User is not a member of the team", status: 400 },
  NO_ACTIVE_TEAM: { message: "You do not have an active team", status: 400 },
  NOT_ALLOWED_TO_CREATE_TEAM_MEMBER: { message: "You are not allowed to create a new member", status: 403 },
  NOT_ALLOWED_TO_REMOVE_TEAM_MEMBER: { message: "You are not allowed to remove a team member", status: 403 },
  EMAIL_QUERY_SERVER_ONLY: { message: "User email cannot be passed for client side API calls.", status: 400 },
  MISSING_SESSION_OR_EMAIL: { message: "Missing session headers, or email query parameter.", status: 400 },

  // Passkeys (Better Auth's passkey codes; statuses as docs/passwordless.md says where authd differs)
  CHALLENGE_NOT_FOUND: { message: "Challenge not found", status: 400 },
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: {
    message: "You are not allowed to register this passkey",
    status: 401,
  },
  FAILED_TO_VERIFY_REGISTRATION: { message: "Failed to verify registration", status: 400 },
  /** A passkey id the caller has no passkey under (update, delete; foreign ids read as unknown). */
  PASSKEY_NOT_FOUND: { message: "Passkey not found", status: 404 },
  /** verify-authentication with a credential no user has registered. */
  SIGN_IN_PASSKEY_NOT_FOUND: { message: "Passkey not found", status: 401 },
  AUTHENTICATION_FAILED: { message: "Authentication failed", status: 400 },
  // Two-factor
  INVALID_TWO_FACTOR_COOKIE: { message: "Invalid two factor cookie", status: 401 },
  TOTP_NOT_ENABLED: { message: "TOTP not enabled", status: 400 },
  OTP_NOT_ENABLED: { message: "OTP not enabled", status: 400 },
  OTP_HAS_EXPIRED: { message: "OTP has expired", status: 400 },
  TOO_MANY_CODE_ATTEMPTS: { message: "Too many attempts. Please request a new code.", status: 400 },
  INVALID_CODE: { message: "Invalid code", status: 401 },
  BACKUP_CODES_ARENT_ENABLED: { message: "Backup codes aren't enabled", status: 400 },
  INVALID_BACKUP_CODE: { message: "Invalid backup code", status: 401 },
  TWO_FACTOR_ISNT_ENABLED: { message: "Two factor isn't enabled", status: 400 },
  NO_PASSWORD_CREDENTIAL_FOUND: { message: "No password credential found", status: 400 },

  // API keys (codes fixed by the spec where it names them)
  METADATA_MUST_BE_OBJECT: { message: "metadata must be an object or undefined", status: 400 },
  REFILL_AMOUNT_REQUIRED: { message: "refillAmount is required when refillInterval is provided", status: 400 },
  REFILL_INTERVAL_REQUIRED: { message: "refillInterval is required when refillAmount is provided", status: 400 },
  UNAUTHORIZED_SESSION: { message: "Unauthorized or invalid session", status: 401 },
  KEY_NOT_FOUND: { message: "API Key not found", status: 404, code: "KEY_NOT_FOUND" },
  KEY_DISABLED: { message: "API Key is disabled", status: 401, code: "KEY_DISABLED" },
  KEY_EXPIRED: { message: "API Key has expired", status: 401, code: "KEY_EXPIRED" },
  USAGE_EXCEEDED: { message: "API Key has reached its usage limit", status: 429, code: "USAGE_EXCEEDED" },
  KEY_NOT_RECOVERABLE: { message: "API Key is not recoverable", status: 400 },
  EXPIRES_IN_IS_TOO_SMALL: { message: "The expiresIn is smaller than the predefined minimum value.", status: 400 },
  EXPIRES_IN_IS_TOO_LARGE: { message: "The expiresIn is larger than the predefined maximum value.", status: 400 },
  INVALID_REMAINING: { message: "The remaining count is either too large or too small.", status: 400 },
  INVALID_PREFIX_LENGTH: { message: "The prefix length is either too large or too small.", status: 400 },
  INVALID_NAME_LENGTH: { message: "The name length is either too large or too small.", status: 400 },
  METADATA_DISABLED: { message: "Metadata is disabled.", status: 400 },
  RATE_LIMITED: { message: "Rate limit exceeded.", status: 401, code: "RATE_LIMITED" },
  NO_VALUES_TO_UPDATE: { message: "No values to update.", status: 400 },
  KEY_DISABLED_EXPIRATION: { message: "Custom key expiration values are disabled.", status: 400 },
  INVALID_API_KEY: { message: "Invalid API key.", status: 401 },
  /** A key in the header too short to be one. */
  MALFORMED_API_KEY: { message: "Invalid API key.", status: 403 },
  INVALID_USER_ID_FROM_API_KEY: { message: "The user id from the API key is invalid.", status: 401 },
  INVALID_API_KEY_GETTER_RETURN_TYPE: {
    message: "API Key getter returned an invalid key type. Expected string.",
    status: 400,
  },
  SERVER_ONLY_PROPERTY: {
    message: "The property you're trying to set can only be set from the server auth instance only.",
    status: 400,
  },
  FAILED_TO_UPDATE_API_KEY: { message: "Failed to update API key", status: 500 },
  WEBHOOK_DESTINATION_REFUSED: { message: "Webhook destination refused", status: 400 },
  WEBHOOK_EVENTS_REQUIRED: { message: "At least one event type is required", status: 400 },
  WEBHOOK_EVENT_UNKNOWN: { message: "Unknown webhook event type", status: 400 },
  INVALID_PREFIX_FORMAT: {
    message: "Invalid prefix format, must be alphanumeric and contain only underscores and hyphens.",
    status: 400,
  },
  // The OpenID Provider's clients (authd clients ...); the protocol's own refusals are OAuth error answers.
  OAUTH_CLIENT_NOT_FOUND: { message: "OAuth client not found", status: 404 },
  INVALID_OAUTH_CLIENT: { message: "Invalid OAuth client registration", status: 400 },
  // The web console's operator actions on organizations (an operator names a role from the role table).
  ORGANIZATION_ROLE_NOT_FOUND: { message: "Role not found", status: 400 },
  WEBHOOK_ENDPOINT_NOT_FOUND: { message: "Webhook endpoint not found", status: 404 },
  WEBHOOK_ENDPOINT_READ_ONLY: { message: "Webhook endpoint read only", status: 400 }, // kept in the config file
  WEBHOOK_ENDPOINT_DISABLED: { message: "Webhook endpoint disabled", status: 400 },
  WEBHOOK_DELIVERY_NOT_FOUND: { message: "Webhook delivery not found", status: 404 },
  WEBHOOK_EVENT_NO_LONGER_KEPT: { message: "Webhook event no longer kept", status: 404 },
} satisfies Record<string, CatalogueEntry>;

export type ErrorKey = keyof typeof entries;

export const ERRORS: Record<ErrorKey, Required<CatalogueEntry>> = Object.fromEntries(
  Object.entries(entries).map(([key, entry]) => {
    const e = entry as CatalogueEntry;
    return [key, { message: e.message, status: e.status, code: e.code ?? codeFromMessage(e.message) }];
  }),
) as Record<ErrorKey, Required<CatalogueEntry>>;
