import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { authenticateClient, type OAuthClient } from "../services/oidc-provider/clients.ts";
import { OAuthError } from "../services/oidc-provider/oauth-error.ts";

// How a client proves itself at the token, revocation and introspection endpoints (RFC 6749 §2.3.1):
// HTTP Basic (client_secret_basic) or client_id and client_secret in the form (client_secret_post), never
// both; a public client sends its client_id alone. Every refusal is invalid_client, whatever was wrong,
// and OAuth answers are JSON the protocol's way ({error, error_description}, never cached).

export type FormBody = Record<string, unknown>;

export const field = (body: FormBody, name: string): string | null => {
  const value = body[name];
  return typeof value === "string" && value !== "" ? value : null;
};

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function oauthJSON(
  body: unknown,
  status: 200 | 400 | 401 = 200,
  headers: Record<string, string> = {},
): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

export function oauthRefusal(c: Context, error: OAuthError): Response {
  if (error.error !== "invalid_client") return oauthJSON(error.toBody(), 400);
  // RFC 6749 §5.2: a client that tried Basic is told so with 401 and a challenge.
  const basic = (c.req.header("authorization") ?? "").toLowerCase().startsWith("basic ");
  return oauthJSON(error.toBody(), 401, basic ? { "www-authenticate": 'Basic realm="authd"' } : {});
}

function basicCredentials(header: string): { clientId: string; secret: string } | null {
  if (!header.toLowerCase().startsWith("basic ")) return null;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "malformed Basic credentials");
  try {
    // Both halves are form-urlencoded first (RFC 6749 §2.3.1).
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError("invalid_client", "malformed Basic credentials");
  }
}

/** The authenticated client of the request, or an invalid_client refusal. */
export async function requireClient(
  c: Context,
  ctx: AuthContext,
  body: FormBody,
  options: { allowPublic: boolean },
): Promise<OAuthClient> {
  const basic = basicCredentials(c.req.header("authorization") ?? "");
  const postedId = field(body, "client_id");
  const postedSecret = field(body, "client_secret");
  if (basic && (postedSecret !== null || (postedId !== null && postedId !== basic.clientId)))
    throw new OAuthError("invalid_request", "use one way of client authentication");
  const clientId = basic?.clientId ?? postedId ?? "";
  const client = await authenticateClient(ctx, clientId, basic?.secret ?? postedSecret);
  if (!client || (client.isPublic && !options.allowPublic))
    throw new OAuthError("invalid_client", "client authentication failed");
  return client;
}
