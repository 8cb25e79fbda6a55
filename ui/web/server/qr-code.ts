import qrcode from "qrcode-generator";
import type { QRDrawing } from "../state.ts";

// A QR code drawn on the server as one SVG path, for the account page's authenticator enrolment: the page
// renders it as inline SVG markup (no image service, no script, no style attribute), and the encoder never
// reaches a browser. qrcode-generator computes the modules (byte mode, Reed-Solomon, the best mask); this
// turns each row's runs of dark modules into rectangles.

/** The four light modules around the code that scanners need (ISO/IEC 18004). */
const QUIET_ZONE = 4;

/** `text` as one character per UTF-8 byte: the library's byte mode takes the low byte of each character. */
const utf8Bytes = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

/** The code of `text` (error correction M, the smallest version that holds it). */
export function drawQRCode(text: string): QRDrawing {
  const code = qrcode(0, "M");
  code.addData(utf8Bytes(text), "Byte");
  code.make();
  const count = code.getModuleCount();
  const runs: string[] = [];
  for (let row = 0; row < count; row++) {
    let column = 0;
    while (column < count) {
      if (!code.isDark(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < count && code.isDark(row, column)) column++;
      const width = column - start;
      runs.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${width}v1h-${width}z`);
    }
  }
  return { size: count + 2 * QUIET_ZONE, path: runs.join("") };
}
