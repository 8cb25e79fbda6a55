import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { addOAuthClient, type NewClientInput, type OAuthClient } from "../../src/services/oidc-provider/clients.ts";
import type { Agent, AgentResponse } from "./agent.ts";
import type { TestContext } from "./context.ts";
import { BROWSER_ACCEPT, hiddenFields, postForm } from "./pages.ts";

// A relying party of authd's OpenID Provider, written out by hand for integration tests: registered
// clients, PKCE pairs, the browser's way through authorize and consent, and calls to the token endpoint.

export const RP_CALLBACK = "https://rp.example.com/callback";

export interface RegisteredClient {
  client: OAuthClient;
  secret: string | null;
}

export async function registerClient(t: TestContext, input: Partial<NewClientInput> = {}): Promise<RegisteredClient> {
  return addOAuthClient(t.ctx, { name: "Test RP", redirectURIs: [RP_CALLBACK], ...input });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A request path of the agent's for an absolute or relative location. */
export const pathOf = (location: string) => {
  const url = new URL(location, "http://localhost:3000");
  return `${url.pathname}${url.search}`;
};

export function authorizePath(params: Record<string, string>): string {
  return `/api/auth/oauth2/authorize?${new URLSearchParams(params)}`;
}

export function authorizeParams(registered: RegisteredClient, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const params: Record<string, string> = {
    response_type: "code",
    client_id: registered.client.id,
    redirect_uri: registered.client.redirectURIs[0],
    scope: "openid profile email",
    state: randomBytes(8).toString("hex"),
    nonce: randomBytes(8).toString("hex"),
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    ...extra,
  };
  return { params, verifier: pkce.verifier };
}

export function browseTo(agent: Agent, location: string): Promise<AgentResponse<string>> {
  return agent.get(pathOf(location), { headers: { accept: BROWSER_ACCEPT } });
}

/** Answer the consent page the browser was sent to (`allow` or `deny`); answers the 303's location. */
export async function answerConsent(agent: Agent, consentLocation: string, decision: "allow" | "deny") {
  const page = await browseTo(agent, consentLocation);
  expect(page.status, page.text).toBe(200);
  const answer = await postForm(agent, "/consent", { ...hiddenFields(page.text), decision });
  expect(answer.status, answer.text).toBe(303);
  return answer.headers.get("location") ?? "";
}

/** A signed-in browser's way from authorize to the client's callback (consenting when asked). */
export async function authorizeToCallback(agent: Agent, params: Record<string, string>): Promise<URL> {
  const first = await agent.get(authorizePath(params));
  expect(first.status, first.text).toBe(302);
  let location = first.headers.get("location") ?? "";
  if (location.startsWith("/account/consent")) location = await answerConsent(agent, location, "allow");
  return new URL(location);
}

/** The token endpoint as a client calls it (client_secret_basic unless it is public or `post` is asked). */
export function tokenRequest(
  t: TestContext,
  registered: RegisteredClient,
  fields: Record<string, string>,
  options: { post?: boolean; path?: string } = {},
): Promise<AgentResponse> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const form = new URLSearchParams(fields);
  if (registered.secret === null || options.post) {
    form.set("client_id", registered.client.id);
    if (registered.secret !== null) form.set("client_secret", registered.secret);
  } else {
    const pair = `${encodeURIComponent(registered.client.id)}:${encodeURIComponent(registered.secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  }
  // A server-to-server call: no cookie, no Origin.
  return t
    .agent()
    .post(options.path ?? "/oauth2/token", undefined, { raw: form.toString(), headers: { ...headers, origin: "" } });
}

/** Sign in, authorize and exchange the code: the tokens a client holds after the code flow. */
export async function codeFlow(
  t: TestContext,
  agent: Agent,
  registered: RegisteredClient,
  extra: Record<string, string> = {},
) {
  const { params, verifier } = authorizeParams(registered, extra);
  const callback = await authorizeToCallback(agent, params);
  const code = callback.searchParams.get("code") ?? "";
  expect(code, callback.href).not.toBe("");
  const answer = await tokenRequest(t, registered, {
    grant_type: "authorization_code",
    code,
    redirect_uri: params.redirect_uri,
    code_verifier: verifier,
  });
  expect(answer.status, answer.text).toBe(200);
  return { params, verifier, code, callback, tokens: answer.body };
}
