import type { Kysely } from "kysely";

// Every table of the spec's §3. Dates are epoch milliseconds in bigint columns; booleans are boolean
// (SQLite stores them as 0/1). Uniqueness that security depends on is enforced here, not in code.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("image", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .addColumn("username", "text", (c) => c.unique())
    .addColumn("displayUsername", "text")
    .addColumn("role", "text")
    .addColumn("banned", "boolean")
    .addColumn("banReason", "text")
    .addColumn("banExpires", "bigint")
    .addColumn("additionalFields", "text")
    .execute();
  await db.schema.createIndex("user_created_at_idx").on("user").column("createdAt").execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .addColumn("activeOrganizationId", "text")
    .addColumn("activeTeamId", "text")
    .addColumn("impersonatedBy", "text")
    .execute();
  await db.schema.createIndex("session_user_id_idx").on("session").column("userId").execute();
  await db.schema.createIndex("session_expires_at_idx").on("session").column("expiresAt").execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("password", "text")
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", "bigint")
    .addColumn("refreshTokenExpiresAt", "bigint")
    .addColumn("scope", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .addUniqueConstraint("account_provider_account_unique", ["providerId", "accountId"])
    .execute();
  await db.schema.createIndex("account_user_id_idx").on("account").column("userId").execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verification_identifier_idx").on("verification").column("identifier").execute();

  await db.schema
    .createTable("rateLimit")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("lastRequest", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("organization")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("logo", "text")
    .addColumn("metadata", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("team")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint")
    .execute();
  await db.schema.createIndex("team_organization_id_idx").on("team").column("organizationId").execute();

  await db.schema
    .createTable("member")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("teamId", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addUniqueConstraint("member_organization_user_unique", ["organizationId", "userId"])
    .execute();
  await db.schema.createIndex("member_user_id_idx").on("member").column("userId").execute();

  await db.schema
    .createTable("teamMember")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("teamId", "text", (c) => c.notNull().references("team.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addUniqueConstraint("team_member_team_user_unique", ["teamId", "userId"])
    .execute();
  await db.schema.createIndex("team_member_user_id_idx").on("teamMember").column("userId").execute();

  await db.schema
    .createTable("invitation")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("teamId", "text")
    .addColumn("inviterId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invitation_organization_id_idx").on("invitation").column("organizationId").execute();
  await db.schema.createIndex("invitation_email_idx").on("invitation").column("email").execute();

  await db.schema
    .createTable("apikey")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text")
    .addColumn("start", "text")
    .addColumn("prefix", "text")
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("refillInterval", "bigint")
    .addColumn("refillAmount", "integer")
    .addColumn("lastRefillAt", "bigint")
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("rateLimitEnabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("rateLimitTimeWindow", "bigint")
    .addColumn("rateLimitMax", "integer")
    .addColumn("requestCount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("remaining", "integer")
    .addColumn("lastRequest", "bigint")
    .addColumn("expiresAt", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .addColumn("permissions", "text")
    .addColumn("metadata", "text")
    .execute();
  await db.schema.createIndex("apikey_user_id_idx").on("apikey").column("userId").execute();
  await db.schema.createIndex("apikey_expires_at_idx").on("apikey").column("expiresAt").execute();

  await db.schema
    .createTable("jwks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("privateKey", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("authdSetting")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    "authdSetting",
    "jwks",
    "apikey",
    "invitation",
    "teamMember",
    "member",
    "team",
    "organization",
    "rateLimit",
    "verification",
    "account",
    "session",
    "user",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
