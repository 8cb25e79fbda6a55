import { connect, createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { createPostgresSchema } from "../helpers/postgres.ts";

// Issue 15, points 3, 4 and 7, read from a real daemon's output: the request log, refused origins, unknown
// variables, and outages named by their dependency.

const AUTHD = [process.execPath, "bin/authd.ts"];
const EVIL = "https://evil.example";

type Line = Record<string, unknown>;

/** The daemon's JSON lines so far. */
const linesOf = (daemon: Daemon): Line[] =>
  daemon
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);

/** Wait until a line matching `match` was written (the pipe delivers it a little after the answer). */
async function lineWhere(daemon: Daemon, match: (line: Line) => boolean): Promise<Line> {
  for (let i = 0; i < 100; i += 1) {
    const found = linesOf(daemon).find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no such line in:\n${daemon.output()}`);
}

const requestLine = (daemon: Daemon, requestId: string) =>
  lineWhere(daemon, (line) => line.message === "request" && line.requestId === requestId);

describe("the request log of a running daemon (AUTH_LOG_FORMAT=json)", () => {
  let daemon: Daemon;
  beforeAll(async () => {
    // A misspelt variable is warned about.
    daemon = await startDaemon(AUTHD, {
      AUTH_LOG_LEVEL: "info",
      AUTH_LOG_FORMAT: "json",
      AUTH_TRUSTED_ORGN: "https://app.example",
    });
  });
  afterAll(() => daemon.stop());

  it("warns at start about an unknown AUTH_* variable, naming the closest known one", async () => {
    const warning = await lineWhere(daemon, (line) => String(line.message).startsWith("AUTH_TRUSTED_ORGN"));
    expect(warning).toMatchObject({
      level: "warn",
      message: "AUTH_TRUSTED_ORGN: unknown variable, ignored (did you mean AUTH_TRUSTED_ORIGINS?)",
    });
  });

  it("writes one line per request with method, path, status, duration, client and the caller's request id, echoed", async () => {
    const response = await fetch(`${daemon.url}/api/auth/ok`, { headers: { "x-request-id": "req-15.a:1" } });
    expect(response.headers.get("x-request-id")).toBe("req-15.a:1");
    const line = await requestLine(daemon, "req-15.a:1");
    expect(line).toEqual({
      time: expect.any(String),
      level: "info",
      message: "request",
      method: "GET",
      path: "/api/auth/ok",
      status: 200,
      durationMs: expect.any(Number),
      client: "127.0.0.1",
      requestId: "req-15.a:1",
    });
    expect(linesOf(daemon).filter((l) => l.requestId === "req-15.a:1")).toHaveLength(1);
  });

  it("generates a request id when none (or an unusable one) is sent, and echoes it", async () => {
    for (const sent of [undefined, "has spaces in it", "x".repeat(200)]) {
      const response = await fetch(`${daemon.url}/api/auth/ok`, { headers: sent ? { "x-request-id": sent } : {} });
      const id = response.headers.get("x-request-id") ?? "";
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await requestLine(daemon, id);
    }
  });

  it("names the user once known, and never writes a cookie, token, query value or body", async () => {
    const email = `log-${Date.now()}@example.com`;
    const password = "request-log-password-1";
    const signUp = await fetch(`${daemon.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: daemon.url, "x-request-id": "signup-1" },
      body: JSON.stringify({ email, password, name: "Log" }),
    });
    expect(signUp.status).toBe(200);
    const { user, token } = (await signUp.json()) as { user: { id: string }; token: string };
    expect(await requestLine(daemon, "signup-1")).toMatchObject({ path: "/api/auth/sign-up/email", userId: user.id });

    const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]);
    const session = await fetch(`${daemon.url}/api/auth/get-session?probe=query-value-secret`, {
      headers: { cookie: cookie.join("; "), "x-request-id": "session-1" },
    });
    expect(session.status).toBe(200);
    expect(await requestLine(daemon, "session-1")).toMatchObject({
      path: "/api/auth/get-session",
      status: 200,
      userId: user.id,
    });

    const reset = await fetch(`${daemon.url}/api/auth/reset-password/path-token-secret?callbackURL=%2Fdone`, {
      headers: { "x-request-id": "reset-1" },
    });
    expect(await requestLine(daemon, "reset-1")).toMatchObject({ path: "/api/auth/reset-password/:token" });
    await reset.body?.cancel();

    const output = daemon.output();
    for (const secret of [
      password,
      token,
      ...cookie.map((c) => c.split("=")[1]),
      "query-value-secret",
      "path-token-secret",
    ])
      expect(output.includes(secret), `the log holds ${secret.slice(0, 6)}…`).toBe(false);
  });
});

describe("refused origins", () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemon(AUTHD, { AUTH_LOG_LEVEL: "warn", AUTH_LOG_FORMAT: "json" });
  });
  afterAll(() => daemon.stop());

  it("answers 403 naming the origin, and warns once a minute per origin with the route and the setting", async () => {
    for (let i = 0; i < 3; i += 1) {
      const refused = await fetch(`${daemon.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: EVIL },
        body: JSON.stringify({ email: "a@example.com", password: "whatever-password" }),
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ code: "INVALID_ORIGIN", message: `Invalid origin: ${EVIL}` });
    }
    const line = await lineWhere(daemon, (l) => l.message === "security.origin_refused" && l.origin === EVIL);
    expect(line).toMatchObject({ level: "warn", path: "/sign-in/email", setting: "AUTH_TRUSTED_ORIGINS" });
    expect(linesOf(daemon).filter((l) => l.origin === EVIL)).toHaveLength(1);
  });

  it("logs a CORS preflight from an untrusted origin (the browser's bare `Failed to fetch`)", async () => {
    const preflight = await fetch(`${daemon.url}/api/auth/get-session`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "GET" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const line = await lineWhere(daemon, (l) => l.origin === "http://localhost:5173");
    expect(line).toMatchObject({
      level: "warn",
      message: "security.origin_refused",
      path: "/get-session",
      setting: "AUTH_TRUSTED_ORIGINS",
    });
  });

  it("writes readable text lines without AUTH_LOG_FORMAT, as the daemon contract says (stderr is a pipe here)", async () => {
    const text = await startDaemon(AUTHD, { AUTH_LOG_LEVEL: "info" });
    try {
      await fetch(`${text.url}/api/auth/ok`, { headers: { "x-request-id": "text-1" } });
      for (let i = 0; i < 100 && !text.output().includes("requestId=text-1"); i += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(text.output()).toMatch(
        /INFO {4}request method=GET path=\/api\/auth\/ok status=200 durationMs=[\d.]+ client=127\.0\.0\.1 requestId=text-1\n/,
      );
    } finally {
      await text.stop();
    }
  });
});

describe("an outage names the dependency", () => {
  it("postgres host:port/database, not cause=undefined", async () => {
    const { url } = await createPostgresSchema();
    const target = new URL(url);
    const [upstreamHost, upstreamPort] = [target.hostname, Number(target.port || 5432)];
    const open = new Set<Socket>();
    const proxy = createServer((client) => {
      const upstream = connect(upstreamPort, upstreamHost);
      open.add(client).add(upstream);
      client.on("error", () => upstream.destroy()).pipe(upstream);
      upstream.on("error", () => client.destroy()).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as { port: number }).port;
    target.hostname = "127.0.0.1";
    target.port = String(port);
    const daemon = await startDaemon(AUTHD, { AUTH_DATABASE_URL: target.toString(), AUTH_LOG_FORMAT: "json" });
    try {
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        for (const socket of open) socket.destroy();
      });
      const answer = await fetch(`${daemon.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "outage-1" },
        body: JSON.stringify({ email: "nobody@example.com", password: "whatever-password" }),
      });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      const line = await lineWhere(daemon, (l) => l.level === "error" && l.requestId === "outage-1");
      expect(line.message).toMatch(
        new RegExp(`^postgres 127\\.0\\.0\\.1:${port}/test: (connection refused|connection lost)$`),
      );
      expect(daemon.output()).not.toContain("undefined");
    } finally {
      await daemon.stop();
    }
  });
});
