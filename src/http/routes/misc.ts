import * as z from "zod";
import { singleLine } from "../fields.ts";
import { escapeHTML, PAGE_STYLE, STATIC_PAGE_CSP } from "../html.ts";
import { defineRoute } from "../route.ts";

export const ok = defineRoute({
  method: "GET",
  path: "/ok",
  summary: "Health check",
  tags: ["Health"],
  response: z.object({ ok: z.boolean() }),
  handler: () => ({ ok: true }),
});

/** The page redirects land on when something went wrong and there is nowhere better to go. */
export function renderErrorPage(code: string, homeURL: string): string {
  const safeCode = escapeHTML(code);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in error</title>
<style>
  ${PAGE_STYLE}
</style>
</head>
<body>
<main role="alert" aria-labelledby="title">
  <h1 id="title">Something went wrong</h1>
  <p>The request could not be completed. Error code: <code id="error-code">${safeCode}</code></p>
  <p><a href="${escapeHTML(homeURL)}">Go back</a></p>
</main>
</body>
</html>`;
}

export const errorPage = defineRoute({
  method: "GET",
  path: "/error",
  summary: "HTML page showing an error code",
  tags: ["Health"],
  query: z.object({ error: singleLine().optional() }),
  // No script on the page at all, and the policy forbids any: the code shown comes from the query string.
  handler: ({ c, ctx, query }) =>
    c.html(renderErrorPage(query.error ?? "UNKNOWN", ctx.appURL), 200, {
      "content-security-policy": STATIC_PAGE_CSP,
    }),
});

export const miscRoutes = [ok, errorPage];
