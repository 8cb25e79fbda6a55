import * as z from "zod";
import { onOff } from "./schema-helpers.ts";

// The daemon's own settings in the configuration schema (schema.ts): listening, secrets, storage, mail,
// proxies, limits, logging and metrics. Their order here is their order in the README table.

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table of fields built on demand (schema.ts), not logic
export const serverFields = () => ({
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
  mailTemplates: z
    .string()
    .min(1)
    .optional()
    .describe("directory of your own mail templates, a file per mail and language (docs/mail.md); unset: authd's own"),
  devOutbox: z
    .enum(["auto", "on", "off"])
    .default("auto")
    .describe(
      "without SMTP, keep the last 100 mails for /account/dev/outbox: auto only while listening on loopback with a base URL on this machine, on always (anyone who reaches it reads every link), off never",
    ),
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
    .describe("log line format: one JSON object a line, or readable text (default: text; set json for a log shipper)"),
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
        .describe("serve /metrics on a listener of its own at HOST:PORT instead of the main one (unset: the main one)"),
    })
    .prefault({}),
});
