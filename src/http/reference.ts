import type { Hono } from "hono";
import type { AuthContext } from "../context.ts";
import { buildOpenAPIDocument } from "./openapi.ts";
import { loadReferenceAssets } from "./reference-assets.ts";
import type { Route } from "./route.ts";

// GET /api/reference: the API reference page (swagger-ui, served from the binary), its assets, and the
// OpenAPI document it renders. No inline script, so a strict Content-Security-Policy holds.

export const REFERENCE_PATH = "/api/reference";

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>authd API reference</title>
<link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({ url: "${REFERENCE_PATH}/openapi.json", dom_id: "#reference", deepLinking: true, withCredentials: true, tryItOutEnabled: false });`;

/** The reference page and its document; `routes` loads every mounted route (on the document's first request). */
export function mountReference(app: Hono, ctx: AuthContext, routes: () => Promise<Route[]>): void {
  let document: string | undefined;
  const headers = { "content-security-policy": CSP, "x-content-type-options": "nosniff" };
  app.get(REFERENCE_PATH, (c) => c.html(page, 200, headers));
  app.get(`${REFERENCE_PATH}/openapi.json`, async (c) => {
    document ??= JSON.stringify(buildOpenAPIDocument(ctx, await routes()));
    return c.body(document, 200, { "content-type": "application/json" });
  });
  app.get(`${REFERENCE_PATH}/init.js`, (c) =>
    c.body(init, 200, { "content-type": "text/javascript; charset=utf-8", ...headers }),
  );
  app.get(`${REFERENCE_PATH}/swagger-ui-bundle.js`, async (c) =>
    c.body((await loadReferenceAssets()).script, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
    }),
  );
  app.get(`${REFERENCE_PATH}/swagger-ui.css`, async (c) =>
    c.body((await loadReferenceAssets()).css, 200, {
      "content-type": "text/css; charset=utf-8",
      "cache-control": "public, max-age=86400",
    }),
  );
}
