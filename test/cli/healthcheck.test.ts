import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";

const root = new URL("../..", import.meta.url).pathname;
const authd = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["bin/authd.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
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
    expect(result.stderr).toMatch(/^authd: unhealthy: http:\/\/127\.0\.0\.1:\d+\/api\/auth\/ok/);
  });

  it("exits 2 on a bad flag value", () => {
    expect(authd(["healthcheck", "--timeout", "soon"]).status).toBe(2);
  });
});
