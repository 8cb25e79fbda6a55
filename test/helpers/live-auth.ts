import { TEST_ORIGIN } from "./context.ts";
import { type PeerResponse, peerRequest } from "./live-server.ts";

// Auth calls over real sockets (test/helpers/live-server.ts), from a chosen peer address, optionally
// with a forwarding header: what a browser, or a proxy in front of authd, would send.

export interface LiveCall {
  /** Local address of the client socket (the peer authd sees). */
  from?: string;
  /** Extra headers, e.g. { "x-forwarded-for": "203.0.113.9" }. */
  headers?: Record<string, string>;
}

export function livePost(url: string, path: string, body: unknown, call: LiveCall = {}): Promise<PeerResponse> {
  return peerRequest(url, `/api/auth${path}`, {
    from: call.from,
    body,
    headers: { origin: TEST_ORIGIN, ...call.headers },
  });
}

export const WRONG_PASSWORD = "wrong-password-1";

/** A failed (or refused) password sign-in for `email`. */
export function liveSignIn(url: string, email: string, password: string, call: LiveCall = {}): Promise<PeerResponse> {
  return livePost(url, "/sign-in/email", { email, password }, call);
}

/** The Cookie header a browser would send back after this answer. */
export function cookiesOf(response: PeerResponse): string {
  return (response.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");
}

/** The address the session started by `response` records, as get-session reports it. */
export async function sessionAddress(url: string, response: PeerResponse): Promise<unknown> {
  if (response.status !== 200) throw new Error(`expected a session, got ${response.status} ${response.text}`);
  const session = await peerRequest(url, "/api/auth/get-session", { headers: { cookie: cookiesOf(response) } });
  return (session.json as { session?: { ipAddress?: unknown } } | null)?.session?.ipAddress;
}

let counter = 0;
/** Sign a new user up over a real socket; returns the answer (its cookies start the session) and the email. */
export async function liveSignUp(url: string, call: LiveCall = {}, password = "correct-horse-battery") {
  counter += 1;
  const email = `live.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await livePost(url, "/sign-up/email", { name: "Live User", email, password }, call);
  return { response, email, password };
}
