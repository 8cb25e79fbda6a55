import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from "jose";
import { expect } from "vitest";

// Relying parties' back-channel logout endpoints on loopback: one server, a path per client. It records every
// POST (path, content type, logout_token) and answers as the test says: a status, or "hold" (no answer until
// release(), as a slow client would).

export interface ReceivedLogout {
  path: string;
  contentType: string;
  token: string;
}

export interface LogoutReceiver {
  /** The back-channel logout URI for a client at `path` ("/a"). */
  url(path: string): string;
  received: ReceivedLogout[];
  /** The logout tokens received at `path`, in order. */
  tokensAt(path: string): string[];
  /** How the next requests are answered (200 unless told). */
  answer: (path: string) => number | "hold";
  /** Requests held and not answered yet. */
  held(): number;
  /** Answer every held request with 200. */
  release(): void;
  close(): Promise<void>;
}

export async function startLogoutReceiver(): Promise<LogoutReceiver> {
  const received: ReceivedLogout[] = [];
  const holding = new Set<http.ServerResponse>();
  const receiver: LogoutReceiver = {
    url: () => "",
    received,
    tokensAt: (path) => received.filter((entry) => entry.path === path).map((entry) => entry.token),
    answer: () => 200,
    held: () => holding.size,
    release() {
      for (const response of holding) response.writeHead(200).end();
      holding.clear();
    },
    close: async () => {},
  };
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = (request.url ?? "").split("?")[0];
      const token = new URLSearchParams(body).get("logout_token") ?? "";
      received.push({ path, contentType: String(request.headers["content-type"] ?? ""), token });
      const reply = receiver.answer(path);
      if (reply === "hold") holding.add(response);
      else response.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = (path) => `http://127.0.0.1:${port}${path}`;
  receiver.close = async () => {
    for (const response of holding) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/**
 * A logout token checked as a relying party must (Back-Channel Logout 1.0 §2.6): signed with a key of
 * authd's JWKS, typ logout+jwt, the issuer, the client as audience, iat and jti, the back-channel event, a
 * sid, and no nonce. Answers its claims.
 */
export async function verifyLogoutToken(
  token: string,
  expected: { jwks: unknown; issuer: string; clientId: string; now: number },
): Promise<JWTPayload> {
  expect(decodeProtectedHeader(token).typ).toBe("logout+jwt");
  const keys = createLocalJWKSet(expected.jwks as Parameters<typeof createLocalJWKSet>[0]);
  const { payload } = await jwtVerify(token, keys, {
    issuer: expected.issuer,
    audience: expected.clientId,
    typ: "logout+jwt",
    currentDate: new Date(expected.now),
  });
  expect(payload.events).toEqual({ "http://schemas.openid.net/event/backchannel-logout": {} });
  expect(typeof payload.jti).toBe("string");
  expect(typeof payload.iat).toBe("number");
  expect(typeof payload.sid).toBe("string");
  expect(payload).not.toHaveProperty("nonce");
  return payload;
}
