import type { Agent, AgentResponse } from "./agent.ts";

// authd's pages through the test agent: read a page's form token from its HTML and post its form as a
// browser without JavaScript does (application/x-www-form-urlencoded, the agent's trusted Origin).

export const PAGES = "/account";

/** The anti-forgery token of the form on the page at `path` (GET, which also sets its cookie). */
export async function formTokenOf(agent: Agent, path: string): Promise<string> {
  const page = await agent.get(`${PAGES}${path}`, { headers: { accept: "text/html" } });
  const token = page.text.match(/name="csrf" value="([^"]+)"/)?.[1];
  if (!token) throw new Error(`no form token on ${path} (status ${page.status})`);
  return token;
}

/** Post `fields` to the page route at `path` as a plain HTML form. */
export function postForm(
  agent: Agent,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<AgentResponse> {
  return agent.post(`${PAGES}${path}`, undefined, {
    raw: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
  });
}

/** GET the page at `path` and post its form with its own token and `fields`. */
export async function submitPage(agent: Agent, path: string, fields: Record<string, string>): Promise<AgentResponse> {
  return postForm(agent, path, { csrf: await formTokenOf(agent, path), ...fields });
}

/** The text a page shows in its alert region (role="alert"), tags removed. */
export function alertText(page: AgentResponse): string {
  const match = page.text.match(/role="alert"[^>]*>([^<]*(?:<(?!\/div|\/p)[^<]*)*)/);
  return (match?.[1] ?? "").replace(/<[^>]+>/g, "").trim();
}
