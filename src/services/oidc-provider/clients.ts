import type { AuthContext } from "../../context.ts";
import { constantTimeEqual, generateRandomString, sha256Base64Url } from "../../crypto/random.ts";
import type { OAuthClientRow } from "../../db/oauth-schema.ts";
import {
  deleteOAuthClient,
  findOAuthClient,
  insertOAuthClient,
  listOAuthClients,
  type OAuthClientChanges,
  updateOAuthClient,
  updateOAuthClientSecret,
} from "../../db/repositories/oauth-clients.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import type { OAuthClientWire } from "../../wire/oauth-client.ts";
import type { OidcClientDetail } from "../security-event-types.ts";
import { CLI_SOURCE, type EventSource, recordSecurityEvent } from "../security-events.ts";
import { redirectURIProblem } from "./redirect-uris.ts";

// The OpenID Provider's clients: registered by an operator (`authd clients add`), never by a stranger
// (dynamic registration is off). A confidential client's secret is shown once and kept as a SHA-256 digest:
// it is 256 random bits, so a fast digest is as good as a slow one and lets every check be constant-time.
// Every change is a security event from the operator who made it (`authd clients`, the admin routes, the web
// console), in the transaction of the change.

export type IdTokenAlgorithm = OAuthClientWire["id_token_signed_response_alg"];

export interface OAuthClient {
  id: string;
  name: string;
  isPublic: boolean;
  redirectURIs: string[];
  postLogoutRedirectURIs: string[];
  idTokenAlg: IdTokenAlgorithm;
  skipConsent: boolean;
  backchannelLogoutURI: string | null;
  createdAt: number;
}

export interface NewClientInput {
  name: string;
  redirectURIs: string[];
  postLogoutRedirectURIs?: string[];
  idTokenAlg?: IdTokenAlgorithm;
  isPublic?: boolean;
  skipConsent?: boolean;
  backchannelLogoutURI?: string | null;
}

const invalid = (message: string) => new AuthError("INVALID_OAUTH_CLIENT", { message });

export function toOAuthClient(row: OAuthClientRow): OAuthClient {
  return {
    id: row.id,
    name: row.name,
    isPublic: row.secretHash === null,
    redirectURIs: JSON.parse(row.redirectURIs) as string[],
    postLogoutRedirectURIs: JSON.parse(row.postLogoutRedirectURIs) as string[],
    idTokenAlg: row.idTokenAlg as IdTokenAlgorithm,
    skipConsent: Boolean(row.skipConsent),
    backchannelLogoutURI: row.backchannelLogoutURI,
    createdAt: Number(row.createdAt),
  };
}

export function toOAuthClientWire(client: OAuthClient): OAuthClientWire {
  return {
    client_id: client.id,
    client_name: client.name,
    redirect_uris: client.redirectURIs,
    post_logout_redirect_uris: client.postLogoutRedirectURIs,
    id_token_signed_response_alg: client.idTokenAlg,
    token_endpoint_auth_method: client.isPublic ? "none" : "client_secret_basic",
    skip_consent: client.skipConsent,
    backchannel_logout_uri: client.backchannelLogoutURI,
    created_at: new Date(client.createdAt).toISOString(),
  };
}

const newSecret = () => generateRandomString(48);

function checkInput(input: NewClientInput): void {
  if (input.name.trim() === "" || input.name.length > 200)
    throw invalid("a client needs a name of 1 to 200 characters");
  if (input.redirectURIs.length === 0) throw invalid("a client needs at least one redirect URI");
  const publicClient = input.isPublic ?? false;
  for (const uri of input.redirectURIs) {
    const problem = redirectURIProblem(uri, publicClient);
    if (problem) throw invalid(problem);
  }
  for (const uri of [
    ...(input.postLogoutRedirectURIs ?? []),
    ...(input.backchannelLogoutURI ? [input.backchannelLogoutURI] : []),
  ]) {
    const problem = redirectURIProblem(uri, false);
    if (problem) throw invalid(problem);
  }
}

/** Record a change of a client in the transaction `tx` of the change. */
function recordClientEvent(tx: AuthContext, detail: OidcClientDetail, source: EventSource): Promise<void> {
  return recordSecurityEvent(tx, { ...detail, userId: null, source });
}

/** Register a client; answers it with its secret (confidential clients), which is not kept in clear. */
export async function addOAuthClient(
  ctx: AuthContext,
  input: NewClientInput,
  source: EventSource = CLI_SOURCE,
): Promise<{ client: OAuthClient; secret: string | null }> {
  checkInput(input);
  const secret = input.isPublic ? null : newSecret();
  const now = ctx.now();
  const id = generateRandomString(32);
  await withTransaction(ctx, async (tx) => {
    await insertOAuthClient(tx.db, {
      id,
      name: input.name.trim(),
      secretHash: secret === null ? null : sha256Base64Url(secret),
      redirectURIs: JSON.stringify(input.redirectURIs),
      postLogoutRedirectURIs: JSON.stringify(input.postLogoutRedirectURIs ?? []),
      idTokenAlg: input.idTokenAlg ?? "RS256",
      skipConsent: input.skipConsent ?? false,
      backchannelLogoutURI: input.backchannelLogoutURI ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await recordClientEvent(tx, { type: "oidc_client_created", outcome: "success", clientId: id }, source);
  });
  return { client: await requireOAuthClient(ctx, id), secret };
}

/** What an operator may change of a client: its name, its URIs and whether its users are asked to consent. */
export type ClientChanges = Partial<
  Pick<NewClientInput, "name" | "redirectURIs" | "postLogoutRedirectURIs" | "backchannelLogoutURI" | "skipConsent">
>;

/** The changed fields as the wire names them (the event's `fields`), and as the row stores them. */
function storedChanges(changes: ClientChanges): { fields: string[]; row: OAuthClientChanges } {
  const fields: string[] = [];
  const row: OAuthClientChanges = {};
  const change = <K extends keyof OAuthClientChanges>(key: K, value: OAuthClientChanges[K], field: string) => {
    row[key] = value;
    fields.push(field);
  };
  if (changes.name !== undefined) change("name", changes.name.trim(), "client_name");
  if (changes.redirectURIs !== undefined) change("redirectURIs", JSON.stringify(changes.redirectURIs), "redirect_uris");
  if (changes.postLogoutRedirectURIs !== undefined)
    change("postLogoutRedirectURIs", JSON.stringify(changes.postLogoutRedirectURIs), "post_logout_redirect_uris");
  if (changes.backchannelLogoutURI !== undefined)
    change("backchannelLogoutURI", changes.backchannelLogoutURI, "backchannel_logout_uri");
  if (changes.skipConsent !== undefined) change("skipConsent", changes.skipConsent, "skip_consent");
  return { fields, row };
}

/**
 * Change a client's name, URIs or consent; the URIs obey the rules of a new registration. Only what differs
 * from the client is written and named in the event (a form sending every field changes what it changed).
 */
export async function updateClient(
  ctx: AuthContext,
  id: string,
  changes: ClientChanges,
  source: EventSource = CLI_SOURCE,
): Promise<OAuthClient> {
  const client = await requireOAuthClient(ctx, id);
  const given = dropUndefined({ ...changes, name: changes.name?.trim() });
  checkInput({ ...client, ...given });
  const { fields, row } = storedChanges(differences(client, given));
  if (fields.length === 0) return client;
  await withTransaction(ctx, async (tx) => {
    if (!(await updateOAuthClient(tx.db, id, row, ctx.now()))) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
    await recordClientEvent(tx, { type: "oidc_client_updated", outcome: "success", clientId: id, fields }, source);
  });
  return requireOAuthClient(ctx, id);
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** The changes whose value is not the client's already. */
function differences(client: OAuthClient, changes: ClientChanges): ClientChanges {
  const current: ClientChanges = client;
  return Object.fromEntries(
    Object.entries(changes).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(current[key as keyof ClientChanges]),
    ),
  );
}

export async function findClient(ctx: AuthContext, id: string): Promise<OAuthClient | null> {
  if (id === "" || id.length > 256) return null;
  const row = await findOAuthClient(ctx.db, id);
  return row ? toOAuthClient(row) : null;
}

export async function requireOAuthClient(ctx: AuthContext, id: string): Promise<OAuthClient> {
  const client = await findClient(ctx, id);
  if (!client) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
  return client;
}

export async function listClients(ctx: AuthContext): Promise<OAuthClient[]> {
  return (await listOAuthClients(ctx.db)).map(toOAuthClient);
}

/** A new secret for a confidential client; the old one stops working at once. */
export async function rotateClientSecret(
  ctx: AuthContext,
  id: string,
  source: EventSource = CLI_SOURCE,
): Promise<{ client: OAuthClient; secret: string }> {
  const client = await requireOAuthClient(ctx, id);
  if (client.isPublic) throw invalid("a public client has no secret to rotate");
  const secret = newSecret();
  await withTransaction(ctx, async (tx) => {
    if (!(await updateOAuthClientSecret(tx.db, id, sha256Base64Url(secret), ctx.now())))
      throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
    await recordClientEvent(tx, { type: "oidc_client_secret_rotated", outcome: "success", clientId: id }, source);
  });
  return { client, secret };
}

/** Remove a client with everything it was given (codes, grants, tokens, consents). */
export async function removeOAuthClient(ctx: AuthContext, id: string, source: EventSource = CLI_SOURCE): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    if (!(await deleteOAuthClient(tx.db, id))) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
    await recordClientEvent(tx, { type: "oidc_client_deleted", outcome: "success", clientId: id }, source);
  });
}

/** A digest compared against when the client is unknown, so both cases cost the same. */
const NO_CLIENT_DIGEST = sha256Base64Url("authd: no such client");

/**
 * Who is calling the token, revocation or introspection endpoint: the client whose id and secret match
 * (compared in constant time), a public client that sent its id and no secret, or null.
 */
export async function authenticateClient(
  ctx: AuthContext,
  clientId: string,
  secret: string | null,
): Promise<OAuthClient | null> {
  const row = clientId ? await findOAuthClient(ctx.db, clientId) : undefined;
  if (row && row.secretHash === null) return secret === null ? toOAuthClient(row) : null;
  const presented = sha256Base64Url(secret ?? "");
  const matches = constantTimeEqual(presented, row?.secretHash ?? NO_CLIENT_DIGEST);
  return row && secret !== null && matches ? toOAuthClient(row) : null;
}
