import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/daemon.ts";
import { type PeerResponse, peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";
import { documentedServerBlock, type RunningNginx, startNginx } from "../helpers/nginx.ts";

// A real nginx (Debian's package, installed by test/setup.sh) in front of authd and a small upstream,
// configured with the auth_request block of docs/proxies.md, taken from the document itself.

const PASSWORD = "correct-horse-battery";

/** What the upstream saw: the X-Auth-* headers (every copy), the method and the path. */
interface Seen {
  method: string;
  url: string;
  auth: Record<string, string | string[]>;
}

describe("nginx auth_request in front of authd (docs/proxies.md)", () => {
  let authd: RunningAuthd;
  let upstream: http.Server;
  let nginx: RunningNginx;
  let base: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    authd = await startAuthd({
      env: {
        AUTH_TRUSTED_PROXIES: "127.0.0.1",
        AUTH_TRUSTED_ORIGINS: base,
        // The site's own sign-in page, behind the same nginx: the block must leave it outside the check.
        AUTH_FORWARD_AUTH_SIGN_IN_URL: `${base}/sign-in`,
      },
    });
    upstream = http.createServer((req, res) => {
      const auth: Record<string, string | string[]> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i].toLowerCase();
        if (!name.startsWith("x-auth-")) continue;
        const previous = auth[name];
        auth[name] = previous === undefined ? req.rawHeaders[i + 1] : [previous, req.rawHeaders[i + 1]].flat();
      }
      seen.push({ method: req.method ?? "", url: req.url ?? "", auth });
      res.writeHead(200, { "content-type": "text/plain" }).end("upstream");
    });
    await new Promise<void>((done) => upstream.listen(0, "127.0.0.1", done));
    const upstreamAddress = upstream.address();
    const upstreamPort = typeof upstreamAddress === "object" && upstreamAddress ? upstreamAddress.port : 0;

    const server = documentedServerBlock(`127.0.0.1:${authd.port}`, `127.0.0.1:${upstreamPort}`, port);
    nginx = await startNginx(server, port);
  });

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((done) => upstream?.close(done));
    await authd?.close();
  });

  /** Sign up through authd itself (not the proxy); returns the user and the cookie and bearer token. */
  async function signUpDirect(name: string) {
    const email = `${name.toLowerCase().replace(/\W/g, "")}.${seen.length}@example.com`;
    const res = await peerRequest(authd.url, "/api/auth/sign-up/email", { body: { name, email, password: PASSWORD } });
    expect(res.status).toBe(200);
    const token = String(res.headers["set-auth-token"]);
    const json = res.json as { user: { id: string } };
    return { id: json.user.id, email, token, cookie: `better-auth.session_token=${token}` };
  }

  const throughNginx = (path: string, headers: Record<string, string> = {}, method = "GET"): Promise<PeerResponse> =>
    peerRequest(base, path, { headers, method });

  it("lets a signed-in request through with the user headers, by cookie and by bearer token", async () => {
    const user = await signUpDirect("Nginx Nell");
    const byCookie = await throughNginx("/orders/7?tab=items", { cookie: user.cookie });
    expect(byCookie.status).toBe(200);
    expect(byCookie.text).toBe("upstream");
    const first = seen.at(-1);
    expect(first?.url).toBe("/orders/7?tab=items");
    expect(first?.auth).toMatchObject({
      "x-auth-user-id": user.id,
      "x-auth-user-email": user.email,
      "x-auth-user-name": "Nginx Nell",
      "x-auth-user-role": "user",
    });
    expect(first?.auth["x-auth-session-id"]).toMatch(/^\w{32}$/);

    const byBearer = await throughNginx("/reports", { authorization: `Bearer ${user.token}` });
    expect(byBearer.status).toBe(200);
    expect(seen.at(-1)?.auth["x-auth-user-id"]).toBe(user.id);
  });

  it("checks POSTs too (the check itself is a GET without the body)", async () => {
    const user = await signUpDirect("Poster");
    const res = await peerRequest(base, "/forms/submit", {
      method: "POST",
      headers: { cookie: user.cookie, "content-type": "application/json" },
      body: { field: "value" },
    });
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/forms/submit" });
    expect(seen.at(-1)?.auth["x-auth-user-id"]).toBe(user.id);
  });

  it("answers 401 without a session, and redirects a browser to sign in and back", async () => {
    const before = seen.length;
    const api = await throughNginx("/orders/7", { accept: "application/json" });
    expect(api.status).toBe(401);
    const browser = await throughNginx("/orders/7?tab=items", { accept: "text/html" });
    expect(browser.status).toBe(302);
    const location = new URL(String(browser.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${base}/sign-in`);
    expect(location.searchParams.get("callbackURL")).toBe(`${base}/orders/7?tab=items`);
    const forged = await throughNginx("/", {
      accept: "text/html",
      "x-forwarded-host": "evil.example",
      host: "evil.example",
    });
    expect(forged.status).toBe(302);
    expect(forged.headers.location).toBe(`${base}/sign-in`);
    expect(seen.length).toBe(before);
  });

  it("serves the sign-in page it redirects to without a session (no loop), with no client-set X-Auth headers", async () => {
    const victim = await signUpDirect("Sign-in Victim");
    const browser = await throughNginx("/orders/7", { accept: "text/html" });
    expect(browser.status).toBe(302);
    const signInPage = new URL(String(browser.headers.location));
    const page = await throughNginx(`${signInPage.pathname}${signInPage.search}`, {
      accept: "text/html",
      "x-auth-user-id": victim.id,
      "x-auth-user-role": "admin",
    });
    expect(page.status).toBe(200);
    expect(page.text).toBe("upstream");
    expect(seen.at(-1)?.url).toBe(`/sign-in?callbackURL=${encodeURIComponent(`${base}/orders/7`)}`);
    expect(seen.at(-1)?.auth).toEqual({});
  });

  it("reaches authd through the proxy outside the check: signing in there lets the page asked for through", async () => {
    const user = await signUpDirect("Through Proxy");
    const signedIn = await peerRequest(base, "/api/auth/sign-in/email", {
      body: { email: user.email, password: PASSWORD },
      headers: { origin: base },
    });
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers["set-cookie"]).split(";")[0];
    const back = await throughNginx("/orders/7", { accept: "text/html", cookie });
    expect(back.status).toBe(200);
    expect(seen.at(-1)?.auth["x-auth-user-id"]).toBe(user.id);
  });

  it("does not let a client inject X-Auth-User-Id, with or without a session", async () => {
    const victim = await signUpDirect("Victim");
    const attacker = await signUpDirect("Attacker");
    const before = seen.length;
    const anonymous = await throughNginx("/", { "x-auth-user-id": victim.id, "x-auth-user-email": victim.email });
    expect(anonymous.status).toBe(401);
    expect(seen.length).toBe(before);

    const injected = await throughNginx("/", {
      cookie: attacker.cookie,
      "x-auth-user-id": victim.id,
      "x-auth-user-role": "admin",
      "x-auth-session-id": "forged",
    });
    expect(injected.status).toBe(200);
    expect(seen.at(-1)?.auth["x-auth-user-id"]).toBe(attacker.id);
    expect(seen.at(-1)?.auth["x-auth-user-role"]).toBe("user");
    expect(seen.at(-1)?.auth["x-auth-session-id"]).not.toBe("forged");
  });

  it("refuses a tampered cookie and a signed-out session", async () => {
    const user = await signUpDirect("Signed Out");
    const tampered = `${user.cookie.slice(0, -8)}AAAAA%3D`;
    expect((await throughNginx("/", { cookie: tampered })).status).toBe(401);
    const out = await peerRequest(authd.url, "/api/auth/sign-out", {
      body: {},
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(out.status).toBe(200);
    expect((await throughNginx("/", { cookie: user.cookie })).status).toBe(401);
  });
});
