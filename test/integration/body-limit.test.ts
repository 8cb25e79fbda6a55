import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// The body limit over a real socket: a declared Content-Length is judged before the body is read, and a
// chunked body (no length) is counted as it streams in (http/middleware/pipeline.ts).

const LIMIT = 4096;

/** Send `raw` (a whole HTTP/1.1 request) and read the status line of the answer. */
function rawStatus(url: string, raw: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on("error", reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer: ${text.slice(0, 200)}`));
    }, 5000);
  });
}

const head = (path: string, extra: string) =>
  `POST /api/auth${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}\r\n`;

function chunked(body: string): string {
  const pieces = body.match(/.{1,1000}/gs) ?? [];
  return `${pieces.map((piece) => `${piece.length.toString(16)}\r\n${piece}\r\n`).join("")}0\r\n\r\n`;
}

describe("request body limit", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd({ config: { bodyLimitBytes: LIMIT } });
  });
  afterAll(() => authd.close());

  const signIn = JSON.stringify({ email: "nobody@example.com", password: "not the password" });

  it("refuses a declared length over the limit before reading the body", async () => {
    expect(await rawStatus(authd.url, head("/sign-in/email", `Content-Length: ${LIMIT + 1}\r\n`))).toBe(413);
    expect(await rawStatus(authd.url, head("/sign-in/email", "Content-Length: 99999999999\r\n"))).toBe(413);
  });

  it("counts a chunked body as it arrives: over the limit 413, under it read as usual", async () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(LIMIT) });
    expect(
      await rawStatus(authd.url, `${head("/sign-in/email", "Transfer-Encoding: chunked\r\n")}${chunked(big)}`),
    ).toBe(413);
    // A small chunked body reaches the route: a wrong password, not a refusal of the body
    expect(
      await rawStatus(authd.url, `${head("/sign-in/email", "Transfer-Encoding: chunked\r\n")}${chunked(signIn)}`),
    ).toBe(401);
  });

  it("reads a body within its declared length", async () => {
    const raw = `${head("/sign-in/email", `Content-Length: ${Buffer.byteLength(signIn)}\r\n`)}${signIn}`;
    expect(await rawStatus(authd.url, raw)).toBe(401);
  });
});
