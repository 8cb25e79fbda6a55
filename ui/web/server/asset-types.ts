// The pages' static files as the daemon serves them: content-hashed names, each kept as is and compressed.

export interface PageAsset {
  /** e.g. pages-3f2a9c1b.js: the hash changes with the content, so a name can be cached forever. */
  name: string;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  brotli: Uint8Array<ArrayBuffer>;
}

export interface PageAssets {
  /** The front door's bundle (client/main.tsx). */
  script: PageAsset;
  /** The account page's bundle (client/account.tsx). */
  accountScript: PageAsset;
  /** The console's bundle (client/console.tsx). */
  consoleScript: PageAsset;
  style: PageAsset;
  /** The console's stylesheet, after the pages' (styles/console.css). */
  consoleStyle: PageAsset;
}
