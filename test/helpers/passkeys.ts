import type { Agent } from "./agent.ts";
import type { Bend, SoftAuthenticator } from "./soft-authenticator.ts";

// The passkey ceremonies as passkeyClient runs them, with a software authenticator in place of the browser.

/** generate-register-options, the authenticator, verify-registration. */
export async function registerPasskey(agent: Agent, authenticator: SoftAuthenticator, bend: Bend = {}, name?: string) {
  const options = await agent.get("/passkey/generate-register-options");
  if (options.status !== 200) throw new Error(`register options: ${options.status} ${options.text}`);
  const response = authenticator.register(options.body, bend);
  const verified = await agent.post("/passkey/verify-registration", { response, ...(name ? { name } : {}) });
  return { options, response, verified };
}

/** generate-authenticate-options, the authenticator, verify-authentication. */
export async function passkeySignIn(agent: Agent, authenticator: SoftAuthenticator, bend: Bend = {}) {
  const options = await agent.post("/passkey/generate-authenticate-options", {});
  if (options.status !== 200) throw new Error(`authenticate options: ${options.status} ${options.text}`);
  const response = authenticator.assert(options.body, bend);
  const verified = await agent.post("/passkey/verify-authentication", { response });
  return { options, response, verified };
}

export const challengeCookieOf = (agent: Agent) => agent.cookie("better-auth-passkey");
