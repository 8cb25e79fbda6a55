import * as z from "zod";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";

export const ok = defineRoute({
  method: "GET",
  path: "/ok",
  summary: "Health check",
  tags: ["Health"],
  response: z.object({ ok: z.boolean() }),
  handler: () => ({ ok: true }),
});

const escapeHTML = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string,
  );

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
  body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; background: #f6f7f9; color: #1d2330; }
  main { max-width: 32rem; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  code { background: #eef1f5; padding: .15rem .4rem; border-radius: 4px; word-break: break-all; }
  a { color: #2452c2; }
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
    c.html(renderErrorPage(query.error ?? "UNKNOWN", `${ctx.baseURL}/`), 200, {
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    }),
});

export const miscRoutes = [ok, errorPage];
