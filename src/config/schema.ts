import * as z from "zod";
import { AuditConfigSchema, WebhooksConfigSchema } from "./audit-schema.ts";

// One schema for the whole configuration: every field has its default and a description, which the
// README's configuration table and `authd config check` are generated from.

const onOff = z.boolean();
// An HTTP header name (RFC 9110 token characters).
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const seconds = (def: number, description: string) => z.number().int().min(0).default(def).describe(description);

const SocialProviderSchema = z
  .object({
    clientId: z.string().min(1).describe("OAuth client id"),
    clientSecret: z.string().default("").describe("OAuth client secret"),
    issuer: z.url().optional().describe("OpenID Connect issuer; its discovery document supplies the endpoints"),
    trusted: onOff.default(false).describe("trusted for account linking"),
    scopes: z.array(z.string()).optional().describe("scopes requested (replaces the provider's defaults)"),
    authorizationEndpoint: z.url().optional(),
    tokenEndpoint: z.url().optional(),
    userInfoEndpoint: z.url().optional(),
    jwksURI: z.url().optional(),
    emailsEndpoint: z.url().optional().describe("GitHub-style endpoint listing the user's emails"),
    redirectURI: z.url().optional().describe("override of {base}/api/auth/callback/{id}"),
    disableSignUp: onOff.default(false),
    disableImplicitSignUp: onOff.default(false).describe("new users only when the client asks with requestSignUp"),
    prompt: z.string().optional(),
    responseMode: z.enum(["query", "form_post"]).optional(),
    timeoutMs: z.number().int().min(100).default(10_000).describe("timeout of each outbound call"),
  })
  .strict();

export type SocialProviderConfig = z.infer<typeof SocialProviderSchema>;

export const ConfigSchema = z
  .object({
    host: z.string().min(1).default("0.0.0.0").describe("listen address"),
    port: z.number().int().min(1).max(65535).default(3000).describe("listen port"),
    baseURL: z.url().optional().describe("public origin of the daemon (default http://localhost:<port>)"),
    basePath: z.string().startsWith("/").default("/api/auth").describe("path the API is served under"),
    appURL: z
      .url()
      .optional()
      .describe(
        "the app users come from and return to: default callbackURL of mailed links and the error page's link (default: the base URL); its origin is trusted",
      ),
    secret: z
      .string()
      .min(32)
      .optional()
      .describe(
        "signing secret: 32 random bytes or more (head -c 48 /dev/urandom | base64); published, guessable values are refused; generated and stored in the database when unset",
      ),
    previousSecrets: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "earlier signing secrets, during a rotation: cookies, hashed codes and sealed values made with them are still accepted, and stored sealed values are sealed again under the current secret at start",
      ),
    databaseURL: z
      .string()
      .min(1)
      .default("sqlite://./authd.db")
      .describe("sqlite://PATH, sqlite://:memory: or postgres://…"),
    databasePoolSize: z.number().int().min(1).max(1000).default(10).describe("Postgres connection pool size"),
    redisURL: z
      .string()
      .regex(/^rediss?:\/\//, "expected a redis:// or rediss:// URL")
      .optional()
      .describe("secondary storage for sessions and rate-limit counters"),
    redisKeyPrefix: z
      .string()
      .default("authd:")
      .describe("prefix of every Redis key (several deployments can share one Redis)"),
    redisTimeoutMs: z
      .number()
      .int()
      .min(10)
      .max(60_000)
      .default(1000)
      .describe(
        "longest wait for a Redis connection or answer; past it Redis counts as down: requests that need it answer 503 at once until a background probe reconnects",
      ),
    smtpURL: z
      .string()
      .regex(/^smtps?:\/\//, "expected an smtp:// or smtps:// URL")
      .optional()
      .describe("SMTP server; unset: mails are written to the log"),
    smtpTimeoutMs: z.number().int().min(100).default(10_000).describe("SMTP connection and command timeout"),
    mailFrom: z.string().min(3).default("authd@localhost").describe("sender address"),
    appName: z
      .string()
      .min(1)
      .default("authd")
      .describe("product name shown to users: the issuer in authenticator apps, mails"),
    serverToken: z
      .string()
      .min(16)
      .optional()
      .describe(
        "bearer token for server calls: 32 random bytes or more, not the secret; unset: server-only routes answer 404",
      ),
    trustedOrigins: z
      .array(z.string())
      .default([])
      .describe("origins trusted for redirects, the origin check and CORS (the base URL's origin is always trusted)"),
    trustedProxies: z
      .array(z.string())
      .default([])
      .describe(
        "addresses and CIDR ranges of reverse proxies whose forwarding headers are believed; from any other peer the socket address is the client",
      ),
    trustedProxyHeaders: z
      .array(z.string())
      .default(["x-forwarded-for"])
      .describe(
        "headers a trusted proxy names the client in (the first one present is read from the right, skipping trusted proxies)",
      ),
    bodyLimitBytes: z
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024)
      .describe("largest request body accepted"),
    shutdownGraceMs: z.number().int().min(0).default(10_000).describe("time given to requests in flight on SIGTERM"),
    startupTimeoutSeconds: z
      .number()
      .int()
      .min(0)
      .default(30)
      .describe(
        "how long serve keeps retrying the first connection to the database, Redis and SMTP (a server still starting) before it gives up",
      ),
    logLevel: z.enum(["debug", "info", "success", "warn", "error"]).default("info").describe("log level"),
    logFormat: z
      .enum(["text", "json"])
      .optional()
      .describe(
        "log line format: one JSON object a line, or readable text (default: text; set json for a log shipper)",
      ),
    disabledPaths: z.array(z.string().startsWith("/")).default([]).describe("routes that answer 404"),
    apiReference: z
      .object({
        enabled: onOff
          .default(true)
          .describe("serve the API reference page at /api/reference (and its OpenAPI document)"),
      })
      .prefault({}),
    metrics: z
      .object({
        enabled: onOff.default(true).describe("serve GET /metrics"),
        address: z
          .string()
          .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d{1,5}$/, "expected HOST:PORT, e.g. 127.0.0.1:9464")
          .optional()
          .describe(
            "serve /metrics on a listener of its own at HOST:PORT instead of the main one (unset: the main one)",
          ),
      })
      .prefault({}),
    audit: AuditConfigSchema,
    webhooks: WebhooksConfigSchema,

    emailAndPassword: z
      .object({
        enabled: onOff.default(true).describe("email + password sign-up and sign-in"),
        disableSignUp: onOff.default(false).describe("refuse new sign-ups by email"),
        minPasswordLength: z.number().int().min(1).default(8).describe("shortest password accepted"),
        maxPasswordLength: z.number().int().min(1).default(128).describe("longest password accepted"),
        autoSignIn: onOff.default(true).describe("sign the user in after sign-up"),
        requireEmailVerification: onOff.default(false).describe("refuse sign-in until the email is verified"),
        resetPasswordTokenExpiresIn: seconds(3600, "lifetime of a password-reset token"),
        revokeSessionsOnPasswordReset: onOff.default(false).describe("sign out everywhere after a password reset"),
      })
      .prefault({}),
    emailVerification: z
      .object({
        sendOnSignUp: onOff
          .default(true)
          .describe("mail a verification link on sign-up and on a refused unverified sign-in"),
        autoSignInAfterVerification: onOff.default(false),
        expiresIn: seconds(3600, "lifetime of a verification token"),
      })
      .prefault({}),
    changeEmail: z.object({ enabled: onOff.default(true).describe("POST /change-email") }).prefault({}),
    deleteUser: z
      .object({
        enabled: onOff.default(true).describe("POST /delete-user (off: 404)"),
        requireVerification: onOff.default(true).describe("mail a confirmation link before deleting"),
        deleteTokenExpiresIn: seconds(86_400, "lifetime of a delete-account token"),
      })
      .prefault({}),
    account: z
      .object({
        accountLinking: z
          .object({
            enabled: onOff.default(true),
            allowDifferentEmails: onOff.default(false),
            allowUnlinkingAll: onOff.default(false).describe("allow unlinking the last account"),
            trustedProviders: z.array(z.string()).default([]),
          })
          .prefault({}),
        skipStateCookieCheck: onOff
          .default(false)
          .describe(
            "do not bind social sign-in to the browser that started it (for apps that open the authorization URL elsewhere); allows login CSRF",
          ),
      })
      .prefault({}),

    session: z
      .object({
        expiresIn: seconds(604_800, "session lifetime"),
        updateAge: seconds(86_400, "refresh a session once it is this old"),
        freshAge: seconds(86_400, "sessions younger than this are fresh (0 disables the check)"),
        rememberMeOffExpiresIn: seconds(86_400, "lifetime of a session created with rememberMe false"),
        cookieCache: z
          .object({
            enabled: onOff
              .default(false)
              .describe(
                "cache the session in a signed session_data cookie (get-session answers from it without a database read; a revoked session can then look alive until it expires)",
              ),
            maxAge: seconds(300, "lifetime of the cached session cookie"),
          })
          .prefault({}),
        memoryCache: z
          .object({
            enabled: onOff
              .default(true)
              .describe(
                "keep sessions read lately in the daemon's memory while provably current (every change drops them at once, in every daemon: SQLite data_version, Postgres LISTEN/NOTIFY); turn off behind a Postgres proxy that drops notifications (PgBouncer in transaction mode)",
              ),
            maxAge: z
              .number()
              .int()
              .min(1)
              .default(60)
              .describe("longest a session is served from memory before it is read again (seconds)"),
          })
          .prefault({}),
      })
      .prefault({}),
    cookies: z
      .object({
        prefix: z
          .string()
          .regex(/^[A-Za-z0-9._-]+$/)
          .default("better-auth")
          .describe("cookie name prefix"),
        secure: z
          .enum(["auto", "on", "off"])
          .default("auto")
          .describe("Secure + __Secure- prefix (auto: when the base URL is https)"),
        domain: z.string().optional().describe("cookie domain for cross-subdomain cookies"),
      })
      .prefault({}),
    rateLimit: z
      .object({
        enabled: onOff.default(true),
        window: z.number().int().min(1).default(10).describe("window in seconds"),
        max: z.number().int().min(1).default(100).describe("requests per window and path"),
        storage: z
          .enum(["memory", "database", "secondary"])
          .optional()
          .describe("where counters live (secondary: Redis); unset: Redis when AUTH_REDIS_URL is set, else memory"),
        customRules: z
          .record(
            z.string(),
            z.union([z.literal(false), z.object({ window: z.number().int().min(1), max: z.number().int().min(1) })]),
          )
          .default({})
          .describe("per-path rules; a path may end in * ; false disables the limit"),
        ipv6Subnet: z
          .number()
          .int()
          .min(1)
          .max(128)
          .default(64)
          .describe(
            "IPv6 clients are counted per network of this many leading bits (IPv4-mapped addresses count as IPv4)",
          ),
      })
      .prefault({}),
    accountThrottle: z
      .object({
        enabled: onOff
          .default(true)
          .describe(
            "limit password attempts per account (per submitted email or username) from every address, counted in the rate-limit storage",
          ),
        maxFailures: z
          .number()
          .int()
          .min(1)
          .default(10)
          .describe(
            "failed password attempts for one account before further attempts answer 429 without checking the password",
          ),
        window: seconds(
          900,
          "seconds without an attempt after which the count starts over; a correct password or a password reset clears it",
        ),
      })
      .prefault({}),

    magicLink: z
      .object({
        enabled: onOff
          .default(false)
          .describe("magic-link sign-in (/sign-in/magic-link, /magic-link/verify): whoever reads the mailbox signs in"),
        expiresIn: seconds(300, "lifetime of a magic link"),
        disableSignUp: onOff
          .default(false)
          .describe("links sign in existing users only (unknown addresses are answered the same and mailed nothing)"),
      })
      .prefault({}),
    emailOTP: z
      .object({
        enabled: onOff
          .default(false)
          .describe("one-time codes by mail (/email-otp/*, /sign-in/email-otp): whoever reads the mailbox signs in"),
        otpLength: z.number().int().min(4).max(12).default(6).describe("digits in a code"),
        expiresIn: seconds(300, "lifetime of a code"),
        allowedAttempts: z
          .number()
          .int()
          .min(1)
          .default(3)
          .describe("wrong tries a code survives; the next try (even the right code) deletes it"),
        disableSignUp: onOff
          .default(false)
          .describe("codes sign in existing users only (unknown addresses are answered the same and mailed nothing)"),
      })
      .prefault({}),
    username: z
      .object({
        enabled: onOff.default(true).describe("username sign-in"),
        minLength: z.number().int().min(1).default(3),
        maxLength: z.number().int().min(1).default(30),
        pattern: z.string().default("^[a-zA-Z0-9_.]+$").describe("regular expression a username must match"),
      })
      .prefault({}),
    admin: z
      .object({
        enabled: onOff.default(true).describe("/admin routes"),
        defaultRole: z.string().default("user"),
        adminRoles: z.array(z.string()).default(["admin"]),
        adminUserIds: z.array(z.string()).default([]),
        impersonationSessionDuration: seconds(3600, "lifetime of an impersonation session"),
        allowImpersonatingAdmins: onOff
          .default(false)
          .describe(
            "let admins impersonate users who hold any admin permission (the impersonation then carries those permissions)",
          ),
        defaultBanReason: z.string().default("No reason"),
        bannedUserMessage: z
          .string()
          .default(
            "You have been banned from this application. Please contact support if you believe this is an error.",
          ),
      })
      .prefault({}),
    twoFactor: z
      .object({
        enabled: onOff
          .default(true)
          .describe("/two-factor routes; users opt in, and enrolled users are challenged at sign-in"),
        totpWindow: z
          .number()
          .int()
          .min(0)
          .max(3)
          .default(1)
          .describe("TOTP steps (30 s) accepted either side of now, for clock drift"),
        otpExpiresIn: seconds(180, "lifetime of a code sent by mail"),
        otpMaxAttempts: z.number().int().min(1).default(5).describe("wrong tries before a mailed code is void"),
        maxFailures: z
          .number()
          .int()
          .min(1)
          .max(100)
          .default(20)
          .describe(
            "failed second-factor attempts in a row for one account (TOTP, backup and mailed codes, across challenges) before its second factor is locked; at most 100 (NIST SP 800-63B §5.2.2)",
          ),
        lockout: z
          .number()
          .int()
          .min(1)
          .max(86_400)
          .default(900)
          .describe(
            "seconds of the first cool-down of a locked second factor; each further lock before a success doubles it, up to 24 hours",
          ),
        challengeExpiresIn: seconds(180, "time between the password and the second factor (two_factor cookie)"),
        trustDeviceMaxAge: seconds(2_592_000, "how long a trusted browser skips the second factor"),
        backupCodeCount: z.number().int().min(1).max(50).default(10).describe("backup codes per user"),
        skipForPasswordless: onOff
          .default(false)
          .describe(
            "magic links and email codes start a session without the second factor, as in Better Auth 1.3.4 (off: they are challenged like a password)",
          ),
      })
      .prefault({}),
    organization: z
      .object({
        enabled: onOff.default(true),
        allowUserToCreateOrganization: onOff.default(true),
        organizationLimit: z.number().int().min(1).optional().describe("organizations one user may create"),
        creatorRole: z.string().default("owner"),
        membershipLimit: z.number().int().min(1).default(100),
        invitationExpiresIn: seconds(172_800, "invitation lifetime"),
        invitationLimit: z.number().int().min(1).default(100),
        cancelPendingInvitationsOnReInvite: onOff.default(false),
        requireEmailVerificationOnInvitation: onOff
          .default(true)
          .describe(
            "an account whose email is not verified cannot list, read, accept or reject invitations (off: anyone signed up with the invitee's address can)",
          ),
        disableOrganizationDeletion: onOff.default(false),
        invitationAcceptURL: z
          .string()
          .optional()
          .describe("link in invitation mails; {id} is replaced by the invitation id"),
        roles: z
          .record(z.string(), z.record(z.string(), z.array(z.string())))
          .optional()
          .describe("custom roles: role → resource → actions (replaces owner/admin/member)"),
        teams: z
          .object({
            enabled: onOff.default(false),
            maximumTeams: z.number().int().min(1).optional(),
            maximumMembersPerTeam: z.number().int().min(1).optional(),
            allowRemovingAllTeams: onOff.default(false),
          })
          .prefault({}),
      })
      .prefault({}),
    apiKey: z
      .object({
        enabled: onOff.default(true),
        headers: z.array(z.string().min(1)).default(["x-api-key"]).describe("headers an API key is read from"),
        defaultKeyLength: z.number().int().min(16).default(64),
        defaultPrefix: z.string().optional(),
        minimumPrefixLength: z.number().int().min(0).default(1),
        maximumPrefixLength: z.number().int().min(1).default(32),
        minimumNameLength: z.number().int().min(0).default(1),
        maximumNameLength: z.number().int().min(1).default(32),
        requireName: onOff.default(false),
        enableMetadata: onOff.default(false).describe("accept metadata on keys"),
        disableKeyHashing: onOff.default(false),
        disableSessionForAPIKeys: onOff.default(false).describe("do not turn an API key header into a session"),
        memoryCache: onOff
          .default(true)
          .describe(
            "keep API key rows read lately in the daemon's memory while provably current, as for sessions (every change of a key or user drops them, in every daemon); turn off behind a Postgres proxy that drops notifications",
          ),
        startingCharactersLength: z.number().int().min(0).default(6),
        rateLimit: z
          .object({
            enabled: onOff.default(true),
            timeWindow: z.number().int().min(1).default(86_400_000).describe("per-key window in ms"),
            maxRequests: z.number().int().min(1).default(10),
          })
          .prefault({}),
        keyExpiration: z
          .object({
            defaultExpiresIn: z
              .number()
              .int()
              .min(1)
              .nullable()
              .default(null)
              .describe("default expiry in ms (null: none)"),
            disableCustomExpiresTime: onOff.default(false),
            minExpiresIn: z.number().min(0).default(1).describe("days"),
            maxExpiresIn: z.number().min(0).default(365).describe("days"),
          })
          .prefault({}),
      })
      .prefault({}),
    passkey: z
      .object({
        enabled: onOff.default(true).describe("passkey routes (/passkey/*)"),
        rpID: z
          .string()
          .min(1)
          .optional()
          .describe("WebAuthn relying-party id, a domain (default: the base URL's host name)"),
        rpName: z.string().min(1).default("authd").describe("relying-party name authenticators show"),
        origin: z
          .array(z.string())
          .optional()
          .describe("origins whose WebAuthn ceremonies are accepted (default: the base URL's origin)"),
        userVerification: z
          .enum(["required", "preferred", "discouraged"])
          .default("preferred")
          .describe("asked of authenticators; required: a passkey without user verification is refused"),
        residentKey: z
          .enum(["required", "preferred", "discouraged"])
          .default("preferred")
          .describe("discoverable credentials at registration"),
        authenticatorAttachment: z
          .enum(["platform", "cross-platform"])
          .optional()
          .describe("authenticators offered at registration (unset: any; a client may ask per registration)"),
        challengeExpiresIn: seconds(300, "lifetime of a registration or sign-in challenge"),
      })
      .prefault({}),
    jwt: z
      .object({
        enabled: onOff.default(true).describe("GET /token, GET /jwks and the set-auth-jwt header on get-session"),
        algorithm: z
          .enum(["EdDSA", "ES256", "RS256"])
          .default("EdDSA")
          .describe("signing algorithm of new keys (EdDSA: Ed25519; ES256: P-256; RS256: RSA 2048)"),
        issuer: z.string().min(1).optional().describe("iss claim (default: the base URL)"),
        audience: z.array(z.string().min(1)).optional().describe("aud claim (default: the base URL)"),
        expiresIn: z.number().int().min(10).default(900).describe("lifetime of a token in seconds"),
        userFields: z
          .array(z.string().min(1))
          .optional()
          .describe("user fields copied into the token (default: every field get-session shows)"),
      })
      .prefault({}),
    bearer: z
      .object({
        enabled: onOff
          .default(true)
          .describe(
            "the session token in an Authorization: Bearer header in place of the cookie, and the set-auth-token header",
          ),
      })
      .prefault({}),
    forwardAuth: z
      .object({
        enabled: onOff.default(true).describe("GET /forward-auth for reverse proxies"),
        signInURL: z
          .url({ protocol: /^https?$/ })
          .optional()
          .describe("where browsers without a session are sent (302); unset: 401"),
        returnParameter: z
          .string()
          .regex(/^[A-Za-z0-9_.-]+$/)
          .default("callbackURL")
          .describe("query parameter of the sign-in URL that carries the page to return to"),
        headers: z
          .object({
            userId: z.string().regex(HEADER_NAME).default("X-Auth-User-Id").describe("header carrying the user's id"),
            email: z
              .string()
              .regex(HEADER_NAME)
              .default("X-Auth-User-Email")
              .describe("header carrying the email address"),
            name: z.string().regex(HEADER_NAME).default("X-Auth-User-Name").describe("header carrying the name"),
            role: z
              .string()
              .regex(HEADER_NAME)
              .default("X-Auth-User-Role")
              .describe("header carrying the admin role(s), comma-separated"),
            sessionId: z
              .string()
              .regex(HEADER_NAME)
              .default("X-Auth-Session-Id")
              .describe("header carrying the session's id (empty for an API key)"),
          })
          .prefault({})
          .describe("names of the headers a 200 answer carries"),
      })
      .prefault({}),
    social: z
      .record(
        z.string().regex(/^[a-z0-9_-]+$/, "provider ids are lower-case letters, digits, _ and -"),
        SocialProviderSchema,
      )
      .default({}),
    userAdditionalFields: z
      .record(
        z.string(),
        z.object({
          type: z.enum(["string", "number", "boolean"]),
          required: onOff.default(false),
          input: onOff.default(true),
          defaultValue: z.union([z.string(), z.number(), z.boolean()]).optional(),
        }),
      )
      .default({})
      .describe("extra user fields accepted on sign-up and update-user (stored in user.additionalFields)"),
  })
  .strict();

export type ConfigInput = z.input<typeof ConfigSchema>;
export type Config = z.output<typeof ConfigSchema>;
