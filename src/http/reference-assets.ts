import cssPath from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import bundlePath from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };

// The API reference renderer (swagger-ui-dist), embedded in the compiled binary through Bun's file
// imports so /api/reference works offline. Tests run under vite, which ignores import attributes; vitest's
// config points this module at reference-assets.dev.ts, which reads the same files from node_modules.

export interface ReferenceAssets {
  script: string;
  css: string;
}

let loaded: Promise<ReferenceAssets> | undefined;

export function loadReferenceAssets(): Promise<ReferenceAssets> {
  loaded ??= Promise.all([Bun.file(bundlePath).text(), Bun.file(cssPath).text()]).then(([script, css]) => ({
    script,
    css,
  }));
  return loaded;
}
