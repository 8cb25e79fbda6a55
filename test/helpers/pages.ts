import { expect } from "vitest";
import type { Agent, AgentResponse } from "./agent.ts";

// A browser on authd's own pages (under /account) through the test agent: page loads that ask for HTML,
// and form posts as a browser without JavaScript sends them (application/x-www-form-urlencoded, the
// agent's trusted Origin), carrying the fields the page drew (its anti-forgery token among them).

export const PAGES = "/account";

/** What a browser's address bar sends: Accept naming text/html first. */
export const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** A page route's full path: `/sign-in` is under the pages' base path; `/account/…` and `/console…` are taken as is. */
const pagePath = (path: string) =>
  path.startsWith(`${PAGES}/`) || path === PAGES || path.startsWith("/console") ? path : `${PAGES}${path}`;

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

/** The anti-forgery token of the form on the page at `path` (GET, which also sets its cookie). */
export async function formTokenOf(agent: Agent, path: string): Promise<string> {
  const page = await browse(agent, pagePath(path));
  const token = hiddenFields(page.text).csrf;
  if (!token) throw new Error(`no form token on ${path} (status ${page.status})`);
  return token;
}

/** POST `fields` to a page route as a plain HTML form. */
export function postForm(
  agent: Agent,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<AgentResponse<string>> {
  return agent.post(pagePath(path), undefined, {
    raw: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", accept: BROWSER_ACCEPT, ...headers },
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

/** Return addresses an open redirect would follow and the pages must refuse: protocol-relative, backslash, script,
 * userinfo, look-alike host and foreign origin. */
export const HOSTILE_RETURN_ADDRESSES = [
  "//evil.example.com",
  "/\\evil.example.com",
  "javascript:alert(1)",
  "https://app.example.com@evil.example.com/",
  "https://user:pass@app.example.com/",
  "https://app.example.com.evil.example.com/",
  "https://evil.example.com/",
];
