import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { absorbSetCookies } from "../helpers/agent.ts";
import { buildBinary } from "../helpers/binary.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";

// The compiled dist/authd on a temp SQLite file, called over real HTTP: sign up, read the session with
// the cookie, sign out, stop on SIGTERM with exit code 0.

function sessionCookie(response: Response): string {
  const line = response.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
  if (!line) throw new Error(`no session cookie in ${response.status} response`);
  return line.split(";")[0];
}

describe("the compiled binary", () => {
  let daemon: Daemon;
  let binary: string;
  beforeAll(async () => {
    binary = buildBinary();
    daemon = await startDaemon([binary], { AUTH_RATE_LIMIT: "off", AUTH_PASSKEY_RP_ID: "localhost" });
  }, 120_000);
  afterAll(async () => {
    if (daemon?.process.exitCode === null) await daemon.stop();
  });

  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${daemon.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: daemon.url, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const getSession = (cookie: string) =>
    fetch(`${daemon.url}/api/auth/get-session?disableCookieCache=true`, { headers: { cookie } });

  it("signs up, reads the session with the cookie and signs out", async () => {
    const signUp = await post("/sign-up/email", {
      name: "Binary User",
      email: "binary@example.com",
      password: "correct-horse-battery",
    });
    expect(signUp.status).toBe(200);
    const cookie = sessionCookie(signUp);

    const session = await getSession(cookie);
    expect(session.status).toBe(200);
    const body = (await session.json()) as { user: { email: string }; session: { token: string } };
    expect(body.user.email).toBe("binary@example.com");
    expect(cookie).toContain(body.session.token);

    const signOut = await post("/sign-out", {}, cookie);
    expect(signOut.status).toBe(200);
    expect(await signOut.json()).toEqual({ success: true });
    expect(await (await getSession(cookie)).json()).toBeNull();
  });

  it("keeps answering get-session while sign-ins are hashing", async () => {
    const signUp = await post("/sign-up/email", {
      name: "Busy",
      email: "busy@example.com",
      password: "correct-horse-battery",
    });
    const cookie = sessionCookie(signUp);
    const settled: string[] = [];
    // 12 scrypt verifications take several hundred ms of CPU; if hashing held the event loop, the session
    // reads sent after them would queue behind all of them.
    const signIns = Array.from({ length: 12 }, () =>
      post("/sign-in/email", { email: "busy@example.com", password: "correct-horse-battery" }).then((r) => {
        settled.push("sign-in");
        return r.status;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const read = await getSession(cookie);
    settled.push("get-session");
    expect(read.status).toBe(200);
    expect(((await read.json()) as { user: { email: string } }).user.email).toBe("busy@example.com");
    expect(await Promise.all(signIns)).toEqual(Array(12).fill(200));
    // A server whose loop the hashing held would answer in arrival order: the session read last, behind all 12.
    // How many hashes finish before it depends on the machine's load (7 of 12 was seen on a clean CI run), so
    // only "not behind all of them" is asserted.
    expect(settled.indexOf("get-session")).toBeLessThan(12);
    expect(settled.filter((s) => s === "sign-in").length).toBe(12);
  });

  it("serves /metrics and readiness from the binary", async () => {
    const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
    expect(metrics).toMatch(/authd_sign_in_total\{outcome="success"\} 12/);
    expect((await fetch(`${daemon.url}/api/auth/ready`)).status).toBe(200);
  });

  // The WebAuthn library loads on the first ceremony, in a lazily evaluated part of the bundle (with the
  // reflect-metadata polyfill its certificate code needs loaded first): a bundling mistake shows only here.
  it("registers a passkey and signs in with it", async () => {
    const jar = new Map<string, string>();
    const send = async (path: string, body?: unknown) => {
      const response = await fetch(`${daemon.url}/api/auth${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          origin: daemon.url,
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      absorbSetCookies(jar, response.headers.getSetCookie());
      return { status: response.status, body: await response.json() };
    };
    const signUp = await send("/sign-up/email", {
      name: "Passkey User",
      email: "passkey@example.com",
      password: "correct-horse-battery",
    });
    expect(signUp.status).toBe(200);
    const authenticator = new SoftAuthenticator(daemon.url, "localhost");
    const creation = await send("/passkey/generate-register-options");
    expect(creation.status).toBe(200);
    const registered = await send("/passkey/verify-registration", { response: authenticator.register(creation.body) });
    expect(registered.status).toBe(200);
    expect((await send("/sign-out", {})).status).toBe(200);

    const request = await send("/passkey/generate-authenticate-options", {});
    expect(request.status).toBe(200);
    const signedIn = await send("/passkey/verify-authentication", { response: authenticator.assert(request.body) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.session.userId).toBe(signUp.body.user.id);
  });

  it("exits 0 on SIGTERM", async () => {
    expect(await daemon.stop()).toBe(0);
  });
});
