import { expect } from "vitest";
import type { Agent, AgentResponse } from "./agent.ts";

// A browser on authd's own pages (under /account): page loads that ask for HTML, and form posts that carry
// the fields a page drew (its anti-forgery token among them).

/** What a browser's address bar sends: Accept naming text/html first. */
export const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** GET a path as a browser loads a page. */
export function browse(agent: Agent, path: string): Promise<AgentResponse<string>> {
  return agent.get(path, { headers: { accept: BROWSER_ACCEPT } });
}

/** The hidden fields of a page's form, by name (csrf, redirect, token, …). */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[name] = value
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'");
  return fields;
}

/** Load the page at `path` and answer the hidden fields of its form. */
export async function pageForm(agent: Agent, path: string): Promise<Record<string, string>> {
  const page = await browse(agent, path);
  expect(page.status).toBe(200);
  return hiddenFields(page.text);
}

/** POST a form to a page route, as a browser sends it. */
export function postForm(
  agent: Agent,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<AgentResponse<string>> {
  return agent.post(path, undefined, {
    raw: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", accept: BROWSER_ACCEPT, ...headers },
  });
}
