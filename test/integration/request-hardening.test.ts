import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_TOKEN, TEST_ORIGIN } from "../helpers/context.ts";
import { LiveAgent, liveSignUp, uniqueEmail } from "../helpers/live-agent.ts";
import { type PeerResponse, peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// Hostile requests over a real socket: cross-site posts (login CSRF), content types, deeply nested
// JSON, and caching of answers that carry secrets.

const EVIL = "https://evil.example";

const setsSessionCookie = (res: PeerResponse) =>
  [res.headers["set-cookie"] ?? []].flat().some((line) => /session_token=[^;]/.test(line));

describe("requests and input over HTTP", () => {
  let authd: RunningAuthd;
  let base: string;
  beforeAll(async () => {
    authd = await startAuthd({ env: { AUTH_API_KEY_METADATA: "on" } });
    base = authd.url;
  });
  afterAll(() => authd.close());

  const raw = (path: string, body: string, headers: Record<string, string>) =>
    peerRequest(base, `/api/auth${path}`, { method: "POST", body, headers });

  describe("login CSRF: content types", () => {
    it("refuses a cross-site text/plain form post that would sign the browser in, with 415 and no cookie", async () => {
      const { email, password } = await liveSignUp(base);
      // What <form enctype="text/plain"> on another site sends: a JSON-looking body, no preflight.
      const body = JSON.stringify({ email, password, x: "=" });
      const res = await raw("/sign-in/email", body, { "content-type": "text/plain", origin: EVIL });
      expect(res.status).toBe(415);
      expect(res.json).toEqual({ code: "UNSUPPORTED_MEDIA_TYPE", message: "Content-Type must be application/json" });
      expect(setsSessionCookie(res)).toBe(false);
      // The content type alone is refused, whatever the origin.
      const sameSite = await raw("/sign-in/email", body, {
        "content-type": "text/plain;charset=UTF-8",
        origin: TEST_ORIGIN,
      });
      expect(sameSite.status).toBe(415);
    });

    it("refuses a text/plain sign-up and creates no user", async () => {
      const email = uniqueEmail("plain");
      const res = await raw("/sign-up/email", JSON.stringify({ email, password: "correct-horse-battery", name: "P" }), {
        "content-type": "text/plain",
      });
      expect(res.status).toBe(415);
      const later = await new LiveAgent(base).post("/sign-up/email", {
        email,
        password: "correct-horse-battery",
        name: "P",
      });
      expect(later.status).toBe(200);
    });

    it("refuses a JSON body without a content type, and form or multipart bodies on JSON routes", async () => {
      const { email, password } = await liveSignUp(base);
      const json = JSON.stringify({ email, password });
      expect((await raw("/sign-in/email", json, {})).status).toBe(415);
      expect(
        (
          await raw("/sign-in/email", new URLSearchParams({ email, password }).toString(), {
            "content-type": "application/x-www-form-urlencoded",
          })
        ).status,
      ).toBe(415);
      const multipart = `--b\r\ncontent-disposition: form-data; name="email"\r\n\r\n${email}\r\n--b--\r\n`;
      expect(
        (await raw("/sign-in/email", multipart, { "content-type": "multipart/form-data; boundary=b" })).status,
      ).toBe(415);
      expect((await raw("/sign-in/email", json, { "content-type": "application/jsonp" })).status).toBe(415);
    });

    it("accepts application/json with a charset and in any case, from the trusted origin", async () => {
      const { email, password } = await liveSignUp(base);
      const json = JSON.stringify({ email, password });
      for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON;Charset=UTF-8"]) {
        const res = await raw("/sign-in/email", json, { "content-type": type, origin: TEST_ORIGIN });
        expect(res.status, type).toBe(200);
        expect(setsSessionCookie(res)).toBe(true);
      }
    });

    it("keeps bodiless POSTs working: sign-out with no body and no content type", async () => {
      const { agent } = await liveSignUp(base);
      const res = await agent.request("POST", "/sign-out");
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true });
      expect((await agent.get("/get-session")).json).toBeNull();
      // An empty body is an empty object whatever type it claims: there is nothing to misread.
      const other = await liveSignUp(base);
      const typed = await other.agent.request("POST", "/revoke-other-sessions", {
        headers: { "content-type": "text/plain" },
      });
      expect(typed.status).toBe(200);
    });

    it("answers a malformed JSON body with 400, not 415", async () => {
      const res = await raw("/sign-in/email", "{not json", { "content-type": "application/json" });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: "VALIDATION_ERROR" });
    });
  });

  describe("login CSRF: origins on routes that start a session", () => {
    it("refuses sign-in and sign-up from an untrusted Origin even without cookies", async () => {
      const { email, password } = await liveSignUp(base, { username: `u${Math.random().toString(36).slice(2, 10)}` });
      const stranger = new LiveAgent(base, EVIL);
      const signIn = await stranger.post("/sign-in/email", { email, password });
      expect(signIn.status).toBe(403);
      expect(signIn.json).toEqual({ code: "INVALID_ORIGIN", message: `Invalid origin: ${EVIL}` });
      expect(setsSessionCookie(signIn)).toBe(false);
      const signUp = await stranger.post("/sign-up/email", { email: uniqueEmail("evil"), password, name: "E" });
      expect(signUp.status).toBe(403);
      const social = await stranger.post("/sign-in/social", { provider: "github", callbackURL: "/" });
      expect(social.status).toBe(403);
      const nullOrigin = await new LiveAgent(base, "null").post("/sign-in/email", { email, password });
      expect(nullOrigin.status).toBe(403);
    });

    it("refuses a cross-site Referer when there is no Origin", async () => {
      const { email, password } = await liveSignUp(base);
      const res = await peerRequest(base, "/api/auth/sign-in/email", {
        body: { email, password },
        headers: { referer: `${EVIL}/page` },
      });
      expect(res.status).toBe(403);
    });

    it("keeps server-to-server and curl-like calls (no Origin, no Referer) and server calls working", async () => {
      const { email, password } = await liveSignUp(base);
      const bare = await peerRequest(base, "/api/auth/sign-in/email", { body: { email, password } });
      expect(bare.status).toBe(200);
      expect(setsSessionCookie(bare)).toBe(true);
      const server = await peerRequest(base, "/api/auth/sign-up/email", {
        body: { email: uniqueEmail("server"), password, name: "S" },
        headers: { origin: EVIL, authorization: `Bearer ${SERVER_TOKEN}` },
      });
      expect(server.status).toBe(200);
    });

    it("still signs in with JSON from the trusted origin, and routes that start no session keep the cookie-only rule", async () => {
      const { email, password } = await liveSignUp(base);
      const same = await new LiveAgent(base).post("/sign-in/email", { email, password });
      expect(same.status).toBe(200);
      expect(setsSessionCookie(same)).toBe(true);
      // A cookie-less request elsewhere is not at risk: nothing to ride on, and nothing to plant.
      const reset = await new LiveAgent(base, EVIL).post("/request-password-reset", { email });
      expect(reset.status).toBe(200);
    });
  });

  describe("deeply nested JSON", () => {
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

    it("answers 400 (not 500) for metadata nested 100,000 deep on api-key create and organization create", async () => {
      const { agent } = await liveSignUp(base);
      const cookie = [...agent.jar].map(([name, value]) => `${name}=${value}`).join("; ");
      const headers = { "content-type": "application/json", origin: TEST_ORIGIN, cookie };
      const key = await raw("/api-key/create", `{"name":"deep","metadata":{"a":${nested(100_000)}}}`, headers);
      expect(key.status).toBe(400);
      expect(key.json).toEqual({ code: "VALIDATION_ERROR", message: "JSON nested too deeply (at most 64 levels)" });
      const org = await raw(
        "/organization/create",
        `{"name":"Deep","slug":"deep-${Date.now()}","metadata":{"a":${nested(100_000)}}}`,
        headers,
      );
      expect(org.status).toBe(400);
      expect(org.json).toMatchObject({ code: "VALIDATION_ERROR" });
      const signIn = await raw("/sign-in/email", nested(100_000), { "content-type": "application/json" });
      expect(signIn.status).toBe(400);
    });

    it("accepts nesting up to 64 levels and refuses 65, brackets inside strings not counted", async () => {
      const { agent } = await liveSignUp(base);
      // The body is level 1 and metadata level 2: 63 arrays below it make 65 levels, 62 make 64.
      const tooDeep = await agent.post("/api-key/create", {
        name: "deep",
        metadata: { deepest: JSON.parse(nested(63)) },
      });
      expect(tooDeep.status).toBe(400);
      const fits = await agent.post("/api-key/create", {
        name: "fits",
        metadata: { note: '[[[[{{{{\\"['.repeat(50), deepest: JSON.parse(nested(62)) },
      });
      expect(fits.status, fits.text).toBe(200);
      expect((fits.json as { metadata: { note: string } }).metadata.note).toContain("[[[[{{{{");
    });
  });

  describe("Cache-Control on answers that carry secrets", () => {
    it("sends no-store on sign-up, sign-in, get-session, api-key create, change-password and errors", async () => {
      const username = `c${Math.random().toString(36).slice(2, 10)}`;
      const { agent, email, password } = await liveSignUp(base, { username });
      const answers: Array<[string, PeerResponse]> = [
        [
          "sign-up",
          await new LiveAgent(base).post("/sign-up/email", { email: uniqueEmail("cache"), password, name: "C" }),
        ],
        ["sign-in/email", await agent.post("/sign-in/email", { email, password })],
        ["sign-in/username", await new LiveAgent(base).post("/sign-in/username", { username, password })],
        ["get-session", await agent.get("/get-session")],
        ["api-key/create", await agent.post("/api-key/create", { name: "k" })],
        [
          "change-password",
          await agent.post("/change-password", {
            currentPassword: password,
            newPassword: "another-horse-battery",
            revokeOtherSessions: true,
          }),
        ],
        ["get-access-token", await agent.post("/get-access-token", { providerId: "github" })],
        ["error", await new LiveAgent(base).post("/sign-in/email", { email, password: "wrong-password-here" })],
        ["ok", await peerRequest(base, "/api/auth/ok")],
      ];
      for (const [name, res] of answers) expect(res.headers["cache-control"], name).toBe("no-store");
      expect(answers[0][1].status).toBe(200);
      expect((answers[4][1].json as { key: string }).key).toBeTruthy();
    });

    it("keeps the API reference's static assets cacheable", async () => {
      const css = await peerRequest(base, "/api/reference/swagger-ui.css");
      expect(css.status).toBe(200);
      expect(css.headers["cache-control"]).toBe("public, max-age=86400");
    });
  });
});
