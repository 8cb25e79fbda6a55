import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { ReferenceAssets } from "./reference-assets.ts";

// Test-time twin of reference-assets.ts (see there): the same files, read from node_modules.
const require = createRequire(import.meta.url);
let loaded: Promise<ReferenceAssets> | undefined;

export function loadReferenceAssets(): Promise<ReferenceAssets> {
  loaded ??= Promise.all([
    readFile(require.resolve("swagger-ui-dist/swagger-ui-bundle.js"), "utf8"),
    readFile(require.resolve("swagger-ui-dist/swagger-ui.css"), "utf8"),
  ]).then(([script, css]) => ({ script, css }));
  return loaded;
}
