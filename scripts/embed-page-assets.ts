import type { BunPlugin } from "bun";
import type { PageAsset } from "../ui/web/server/asset-types.ts";
import { buildPageAssets } from "../ui/web/server/build-assets.ts";

// The compiled binary carries the pages' bundle and stylesheet inside it. At build time they are made once
// (esbuild, hashed, compressed), and ui/web/server/build-assets.ts, which the daemon imports only when the
// first page is asked for, is replaced by a module that holds them as text: no esbuild in the binary, no
// file beside it, and nothing decoded until that first page.

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

function assetSource(asset: PageAsset): string {
  const fields = [
    `name: ${JSON.stringify(asset.name)}`,
    `contentType: ${JSON.stringify(asset.contentType)}`,
    `body: bytes(${JSON.stringify(base64(asset.body))})`,
    `gzip: bytes(${JSON.stringify(base64(asset.gzip))})`,
    `brotli: bytes(${JSON.stringify(base64(asset.brotli))})`,
  ];
  return `{ ${fields.join(", ")} }`;
}

export async function embeddedPageAssets(): Promise<BunPlugin> {
  const assets = await buildPageAssets();
  const contents = `
const bytes = (text) => new Uint8Array(Buffer.from(text, "base64"));
export async function buildPageAssets() {
  return {
    script: ${assetSource(assets.script)},
    accountScript: ${assetSource(assets.accountScript)},
    consoleScript: ${assetSource(assets.consoleScript)},
    style: ${assetSource(assets.style)},
    consoleStyle: ${assetSource(assets.consoleStyle)},
  };
}
`;
  return {
    name: "embedded-page-assets",
    setup(build) {
      build.onLoad({ filter: /ui[\\/]web[\\/]server[\\/]build-assets\.ts$/ }, () => ({ contents, loader: "js" }));
    },
  };
}
