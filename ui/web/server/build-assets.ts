import { buildAsset } from "./asset-file.ts";
import type { PageAssets } from "./asset-types.ts";

// Builds the pages' three browser bundles (the front door's, the account page's, the console's) and
// stylesheets with esbuild: minified, content-hashed, compressed with
// gzip and brotli once, here. `scripts/build.ts` runs it when compiling the binary and embeds the result
// (assets.ts is replaced there); running from source, assets.ts calls it on the first page request.

const here = new URL(".", import.meta.url).pathname;
const ENTRY_SCRIPT = `${here}../client/main.tsx`;
const ENTRY_ACCOUNT_SCRIPT = `${here}../client/account.tsx`;
const ENTRY_CONSOLE_SCRIPT = `${here}../client/console.tsx`;
const ENTRY_STYLE = `${here}../styles/pages.css`;
const ENTRY_CONSOLE_STYLE = `${here}../styles/console.css`;

async function bundle(entry: string, loader: "tsx" | "css"): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    format: loader === "css" ? undefined : "esm",
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    jsx: "automatic",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    legalComments: "none",
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  return output.text;
}

export async function buildPageAssets(): Promise<PageAssets> {
  const [script, accountScript, consoleScript, style, consoleStyle] = await Promise.all([
    bundle(ENTRY_SCRIPT, "tsx"),
    bundle(ENTRY_ACCOUNT_SCRIPT, "tsx"),
    bundle(ENTRY_CONSOLE_SCRIPT, "tsx"),
    bundle(ENTRY_STYLE, "css"),
    bundle(ENTRY_CONSOLE_STYLE, "css"),
  ]);
  return {
    script: buildAsset("pages", "js", "text/javascript; charset=utf-8", script),
    accountScript: buildAsset("account", "js", "text/javascript; charset=utf-8", accountScript),
    consoleScript: buildAsset("console", "js", "text/javascript; charset=utf-8", consoleScript),
    style: buildAsset("pages", "css", "text/css; charset=utf-8", style),
    consoleStyle: buildAsset("console", "css", "text/css; charset=utf-8", consoleStyle),
  };
}
