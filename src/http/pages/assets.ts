import { readFile } from "node:fs/promises";
import type { Context } from "hono";
import { buildAsset } from "../../../ui/web/server/asset-file.ts";
import type { PageAsset, PageAssets } from "../../../ui/web/server/asset-types.ts";
import { loadPageAssets } from "../../../ui/web/server/assets.ts";
import type { AuthContext } from "../../context.ts";

// The pages' files: the bundle and stylesheet (built by esbuild, embedded in the binary), the theme made
// from the configuration (the primary colour as a CSS custom property, since no inline style is allowed),
// and the operator's own CSS file. All of them are named by their content's hash and cached for a year.

export interface ServedAssets {
  files: Map<string, PageAsset>;
  /** The front door's bundle. */
  script: string;
  /** The account page's bundle. */
  accountScript: string;
  /** The console's bundle. */
  consoleScript: string;
  styles: string[];
  /** The console's stylesheets: the pages', the theme, the console's, then the operator's. */
  consoleStyles: string[];
}

const served = new WeakMap<AuthContext, Promise<ServedAssets>>();

async function collect(ctx: AuthContext): Promise<ServedAssets> {
  const built: PageAssets = await loadPageAssets();
  const { primaryColor, cssFile, basePath } = ctx.config.pages;
  const theme = buildAsset("theme", "css", "text/css; charset=utf-8", `:root{--authd-primary:${primaryColor}}`);
  const extra = cssFile
    ? [buildAsset("custom", "css", "text/css; charset=utf-8", await readFile(cssFile, "utf8"))]
    : [];
  const styleFiles = [built.style, theme, ...extra];
  const consoleStyleFiles = [built.style, theme, built.consoleStyle, ...extra];
  const scripts = [built.script, built.accountScript, built.consoleScript];
  const files = new Map([...scripts, ...consoleStyleFiles].map((file) => [file.name, file]));
  const url = (file: PageAsset) => `${basePath}/assets/${file.name}`;
  return {
    files,
    script: url(built.script),
    accountScript: url(built.accountScript),
    consoleScript: url(built.consoleScript),
    styles: styleFiles.map(url),
    consoleStyles: consoleStyleFiles.map(url),
  };
}

/** The assets of this context, made on the first page asked for. */
export function pageAssets(ctx: AuthContext): Promise<ServedAssets> {
  let assets = served.get(ctx);
  if (!assets) {
    assets = collect(ctx);
    served.set(ctx, assets);
    assets.catch(() => served.delete(ctx));
  }
  return assets;
}

const YEAR = 31_536_000;

/** GET {pages}/assets/:name: the file in the best encoding the browser takes. */
export async function serveAsset(c: Context, ctx: AuthContext): Promise<Response> {
  const file = (await pageAssets(ctx)).files.get(c.req.param("name") ?? "");
  if (!file) return c.text("Not found", 404);
  const accepted = c.req.header("accept-encoding") ?? "";
  const [body, encoding] = /\bbr\b/.test(accepted)
    ? [file.brotli, "br"]
    : /\bgzip\b/.test(accepted)
      ? [file.gzip, "gzip"]
      : [file.body, null];
  const headers: Record<string, string> = {
    "content-type": file.contentType,
    "cache-control": `public, max-age=${YEAR}, immutable`,
    vary: "accept-encoding",
  };
  if (encoding) headers["content-encoding"] = encoding;
  return new Response(body, { status: 200, headers });
}
