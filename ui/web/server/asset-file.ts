import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { PageAsset } from "./asset-types.ts";

/** A file as the pages serve it: named by its content's hash, kept as is, gzip and brotli. */
export function buildAsset(base: string, extension: string, contentType: string, text: string): PageAsset {
  const body = new TextEncoder().encode(text);
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  const brotliParams = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
  return {
    name: `${base}-${hash}.${extension}`,
    contentType,
    body,
    gzip: new Uint8Array(gzipSync(body, { level: 9 })),
    brotli: new Uint8Array(brotliCompressSync(body, { params: brotliParams })),
  };
}
