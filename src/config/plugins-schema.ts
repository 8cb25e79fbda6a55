import * as z from "zod";
import { onOff, seconds } from "./schema-helpers.ts";

// The optional sign-in methods and features in the configuration schema (schema.ts): magic links, email
// one-time codes, usernames, administration, two-factor, organizations and API keys.

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table of fields built on demand (schema.ts), not logic
export const pluginFields = () => ({
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
      adminRoles: z.array(z.string()).default(["admin"]).describe("roles holding every admin permission"),
      roles: z
        .record(z.string(), z.record(z.string(), z.array(z.string())))
        .default({})
        .describe(
          "narrower admin roles: role → resource → actions, e.g. a support role with user: [list, get, ban] (docs/console.md)",
        ),
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
        .default("You have been banned from this application. Please contact support if you believe this is an error."),
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
        .describe(
          "link in invitation mails; {id} is replaced by the invitation id (default: authd's invitation page with the pages on, else {base}/accept-invitation/{id})",
        ),
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
      usageWrites: z
        .enum(["durable", "fast", "leased"])
        .default("durable")
        .describe(
          "how a use of a key with limits is written on Postgres without Redis: durable waits for Postgres's disk flush; fast commits without it (still exact across daemons and safe from a daemon's crash, but a crash of Postgres itself may lose its last uses); leased takes a hot key's uses from the row in blocks and answers from memory (never more uses than the limits allow, but other daemons see a block as spent until its rest goes back, within 2 s, and a daemon's kill loses the rest of its blocks)",
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
});
