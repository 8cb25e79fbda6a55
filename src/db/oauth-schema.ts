import type { Generated, Insertable, Selectable } from "kysely";

// The OpenID Provider's tables (migrations/20261127190000_create_oidc_provider_tables.ts): every secret a
// SHA-256 digest.
export interface OAuthClientTable {
  id: string;
  name: string;
  /** Digest of the client secret; null for a public client. */
  secretHash: string | null;
  /** JSON array of exact redirect URIs. */
  redirectURIs: string;
  /** JSON array of exact post-logout redirect URIs. */
  postLogoutRedirectURIs: string;
  idTokenAlg: string;
  /** 0/1 on SQLite, false/true on Postgres. */
  skipConsent: Generated<boolean | number>;
  backchannelLogoutURI: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface OAuthGrantTable {
  id: string;
  clientId: string;
  userId: string;
  sessionId: string;
  scope: string;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface OAuthCodeTable {
  /** Digest of the code. */
  id: string;
  grantId: string;
  clientId: string;
  userId: string;
  sessionId: string;
  redirectURI: string;
  scope: string;
  nonce: string | null;
  codeChallenge: string | null;
  authTime: number;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface OAuthTokenTable {
  /** Digest of the token. */
  id: string;
  grantId: string;
  kind: "access" | "refresh";
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface OAuthConsentTable {
  id: string;
  userId: string;
  clientId: string;
  scope: string;
  createdAt: number;
  updatedAt: number;
}

export type OAuthClientRow = Selectable<OAuthClientTable>;
export type OAuthGrantRow = Selectable<OAuthGrantTable>;
export type OAuthCodeRow = Selectable<OAuthCodeTable>;
export type NewOAuthCodeRow = Insertable<OAuthCodeTable>;
