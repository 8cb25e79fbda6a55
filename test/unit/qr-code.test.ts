import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { drawQRCode } from "../../ui/web/server/qr-code.ts";

// The account page draws the authenticator's QR code on the server as one SVG path. A scanner must read
// back exactly the otpauth URI: the path is rasterised here the way a browser fills it (each `M x y h w v 1
// h -w z` a w×1 rectangle) and decoded by jsQR, an independent decoder.

const PIXELS_PER_MODULE = 4;

function rasterise(drawing: { size: number; path: string }) {
  const side = drawing.size * PIXELS_PER_MODULE;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, width] of drawing.path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let dy = 0; dy < PIXELS_PER_MODULE; dy++)
      for (let dx = 0; dx < Number(width) * PIXELS_PER_MODULE; dx++) {
        const px = Number(x) * PIXELS_PER_MODULE + dx;
        const py = Number(y) * PIXELS_PER_MODULE + dy;
        pixels.fill(0, (py * side + px) * 4, (py * side + px) * 4 + 3);
      }
  }
  return { pixels, side };
}

const decode = (text: string) => {
  const { pixels, side } = rasterise(drawQRCode(text));
  return jsQR(pixels, side, side)?.data ?? null;
};

describe("the enrolment QR code", () => {
  it("reads back as the otpauth URI it was drawn from", () => {
    const uri =
      "otpauth://totp/Acme%20Cloud:alice%40example.com?secret=MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43UOV3HO6DZPIYTEMZUGU3DOOBZ&issuer=Acme+Cloud&digits=6&period=30";
    expect(decode(uri)).toBe(uri);
  });

  it("keeps the text's UTF-8 bytes (an issuer outside ASCII) and only draws inside its quiet zone", () => {
    const text = "otpauth://totp/Café:zoë@example.com?secret=ABC";
    expect(decode(text)).toBe(text);
    const drawing = drawQRCode(text);
    const coordinates = [...drawing.path.matchAll(/M(\d+) (\d+)h(\d+)/g)];
    expect(Math.min(...coordinates.map((m) => Number(m[1])))).toBe(4);
    expect(Math.max(...coordinates.map((m) => Number(m[1]) + Number(m[3])))).toBe(drawing.size - 4);
    expect(drawing.path).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
  });
});
