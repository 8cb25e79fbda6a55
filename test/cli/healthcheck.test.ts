import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";

const root = new URL("../..", import.meta.url).pathname;
const authd = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["bin/authd.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });

/** The same, without blocking the event loop (the test's own server must answer meanwhile). */
const authdAsync = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["bin/authd.ts", ...args], { cwd: root, env: { ...process.env, ...env } });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stderr }));
  });

describe("authd healthcheck (the container health check)", () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemon([process.execPath, "bin/authd.ts"]);
  });
  afterAll(() => daemon.stop());

  it("exits 0 when the daemon on the configured port answers", () => {
    const result = authd(["healthcheck"], { AUTH_PORT: String(daemon.port) });
    expect(result.stdout).toBe("ok\n");
    expect(result.status).toBe(0);
  });

  it("exits 1 with one line when nothing answers", async () => {
    const result = authd(["healthcheck", "--timeout", "1000"], { AUTH_PORT: String(await freePort()) });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^authd: unhealthy: http:\/\/127\.0\.0\.1:\d+\/api\/auth\/ready/);
  });

  it("checks readiness, not liveness: a daemon that is up but not ready is unhealthy, naming what is down", async () => {
    // A stand-in daemon whose process is up (/ok) while its database is not (/ready answers 503).
    const server = createServer((request, response) => {
      if (request.url === "/api/auth/ok") return response.writeHead(200).end('{"ok":true}');
      response.writeHead(503, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ code: "SERVICE_UNAVAILABLE", message: "x", details: { ready: false, database: false } }),
      );
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      const result = await authdAsync(["healthcheck"], { AUTH_PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `authd: unhealthy: http://127.0.0.1:${port}/api/auth/ready answered 503 (database down)\n`,
      );
    } finally {
      server.close();
    }
  });

  it("--url takes the daemon's address or its API base and checks readiness there", async () => {
    for (const url of [daemon.url, `${daemon.url}/`, `${daemon.url}/api/auth`, `${daemon.url}/api/auth/ready`]) {
      const result = await authdAsync(["healthcheck", "--url", url]);
      expect(result.code, `${url}: ${result.stderr}`).toBe(0);
    }
    const nothing = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await authdAsync(["healthcheck", "--url", nothing, "--timeout", "1000"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(new RegExp(`^authd: unhealthy: ${nothing}/api/auth/ready: `));
  });

  it("--url with a bare address is unhealthy when / answers but the daemon is not ready", async () => {
    // Like a daemon whose database is down: / and /ok answer 200, only /ready tells the truth.
    const server = createServer((request, response) => {
      if (request.url === "/" || request.url === "/api/auth/ok") return response.writeHead(200).end("ok");
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ code: "SERVICE_UNAVAILABLE", details: { ready: false, database: false } }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      for (const url of [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}/api/auth/`]) {
        const result = await authdAsync(["healthcheck", "--url", url]);
        expect(result.code, url).toBe(1);
        expect(result.stderr).toBe(
          `authd: unhealthy: http://127.0.0.1:${port}/api/auth/ready answered 503 (database down)\n`,
        );
      }
    } finally {
      server.close();
    }
  });

  it("exits 2 on a bad flag value", () => {
    expect(authd(["healthcheck", "--timeout", "soon"]).status).toBe(2);
  });
});
