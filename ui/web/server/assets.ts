import type { PageAssets } from "./asset-types.ts";

// Where the daemon gets the pages' bundle and stylesheet. Running from source they are built on first use
// (build-assets.ts, esbuild); in the compiled binary scripts/build.ts replaces this module with one that
// holds the files built at compile time, so the binary needs nothing outside itself. Either way nothing is
// loaded until the first page is asked for (idle memory stays as it was without pages).

let loaded: Promise<PageAssets> | undefined;

export function loadPageAssets(): Promise<PageAssets> {
  loaded ??= import("./build-assets.ts")
    .then((build) => build.buildPageAssets())
    .catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
  return loaded;
}
