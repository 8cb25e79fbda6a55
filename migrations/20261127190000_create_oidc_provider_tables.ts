import type { Kysely } from "kysely";

// authd as an OpenID Provider (issue 30). Every secret is stored as a SHA-256 digest only: client secrets,
// authorization codes, access and refresh tokens.
// - oauthClient: a registered relying party. secretHash null: a public client (PKCE only). The URI lists
//   are JSON arrays of exact strings.
// - oauthCode: an authorization code, single-use (usedAt set by a conditional UPDATE), bound to its client,
//   redirect URI and PKCE challenge. grantId names the family its tokens will belong to, so a replayed
//   code can revoke what the first exchange issued.
// - oauthGrant: one token family (a code's exchange and every refresh after it), tied to the user's
//   session; revokedAt ends every token of it at once.
// - oauthToken: access and refresh tokens of a family; a refresh token's usedAt marks it rotated.
// - oauthConsent: what a user allowed a client, remembered per user and client.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("oauthClient")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("secretHash", "text")
    .addColumn("redirectURIs", "text", (c) => c.notNull())
    .addColumn("postLogoutRedirectURIs", "text", (c) => c.notNull())
    .addColumn("idTokenAlg", "text", (c) => c.notNull())
    .addColumn("skipConsent", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("backchannelLogoutURI", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oauthGrant")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("sessionId", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("authTime", "bigint", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("revokedAt", "bigint")
    .execute();
  await db.schema.createIndex("oauth_grant_session_idx").on("oauthGrant").column("sessionId").execute();
  await db.schema.createIndex("oauth_grant_user_idx").on("oauthGrant").column("userId").execute();
  await db.schema.createIndex("oauth_grant_expires_idx").on("oauthGrant").column("expiresAt").execute();
  await db.schema.createIndex("oauth_grant_revoked_idx").on("oauthGrant").column("revokedAt").execute();

  await db.schema
    .createTable("oauthCode")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("grantId", "text", (c) => c.notNull())
    .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("sessionId", "text", (c) => c.notNull())
    .addColumn("redirectURI", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("nonce", "text")
    .addColumn("codeChallenge", "text")
    .addColumn("authTime", "bigint", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("usedAt", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_code_expires_idx").on("oauthCode").column("expiresAt").execute();

  await db.schema
    .createTable("oauthToken")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("grantId", "text", (c) => c.notNull().references("oauthGrant.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("usedAt", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_token_grant_idx").on("oauthToken").column("grantId").execute();
  await db.schema.createIndex("oauth_token_expires_idx").on("oauthToken").columns(["kind", "expiresAt"]).execute();

  await db.schema
    .createTable("oauthConsent")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.id").onDelete("cascade"))
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .addUniqueConstraint("oauth_consent_user_client_unique", ["userId", "clientId"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("oauthConsent").execute();
  await db.schema.dropTable("oauthToken").execute();
  await db.schema.dropTable("oauthCode").execute();
  await db.schema.dropTable("oauthGrant").execute();
  await db.schema.dropTable("oauthClient").execute();
}
