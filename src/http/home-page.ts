import type { Hono } from "hono";
import type { AuthContext } from "../context.ts";
import { escapeHTML, PAGE_STYLE, STATIC_PAGE_CSP } from "./html.ts";
import { REFERENCE_PATH } from "./reference.ts";

// GET / on the daemon: people land here by following a link with nowhere better to go (an old mail, the
// base URL typed into a browser). A small page saying what this is beats a JSON 404.

export function renderHomePage(ctx: AuthContext): string {
  const api = escapeHTML(ctx.config.basePath);
  const links = [
    ctx.config.apiReference.enabled ? `<li><a href="${REFERENCE_PATH}">API reference</a></li>` : "",
    `<li><a href="${api}/ok">Health</a> (<code>${api}/ok</code>) and <a href="${api}/ready">readiness</a> (<code>${api}/ready</code>)</li>`,
    ctx.appURL !== ctx.baseURL ? `<li><a href="${escapeHTML(ctx.appURL)}">Back to the app</a></li>` : "",
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>authd</title>
<style>
  ${PAGE_STYLE}
</style>
</head>
<body>
<main>
  <h1>authd</h1>
  <p>This is an authentication service. Apps sign users in through its API under <code>${api}</code>; there is nothing to do on this page.</p>
  <ul>
    ${links.join("\n    ")}
  </ul>
</main>
</body>
</html>`;
}

export function mountHomePage(app: Hono, ctx: AuthContext): void {
  const page = renderHomePage(ctx);
  app.get("/", (c) => c.html(page, 200, { "content-security-policy": STATIC_PAGE_CSP, "cache-control": "no-store" }));
}
