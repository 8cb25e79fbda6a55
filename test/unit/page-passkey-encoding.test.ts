import { describe, expect, it } from "vitest";
import { fromBase64url, toBase64url } from "../../ui/web/passkey.ts";

// The sign-in page's passkey module turns the API's base64url strings into the ArrayBuffers WebAuthn
// takes, and the browser's answer back: byte for byte as Node's own base64url, for every length's padding.

describe("the pages' base64url for WebAuthn", () => {
  it("round-trips any bytes and matches Node's encoding", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 97 + length * 31) % 256));
      const text = toBase64url(new Uint8Array(bytes).buffer);
      expect(text).toBe(bytes.toString("base64url"));
      expect(Buffer.from(fromBase64url(text))).toEqual(bytes);
    }
  });

  it("reads the characters only base64url has (- and _)", () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0xfe]);
    expect(toBase64url(new Uint8Array(bytes).buffer)).toBe("-_-__g");
    expect(Buffer.from(fromBase64url("-_-__g"))).toEqual(bytes);
  });
});
