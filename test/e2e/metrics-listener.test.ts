import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";

// AUTH_METRICS_ADDRESS: /metrics on a listener of its own (a private interface), gone from the main one.

describe("AUTH_METRICS_ADDRESS", () => {
  let daemon: Daemon;
  let metricsURL: string;
  beforeAll(async () => {
    const port = await freePort();
    metricsURL = `http://127.0.0.1:${port}`;
    daemon = await startDaemon(["node_modules/.bin/bun", "bin/authd.ts"], {
      AUTH_METRICS_ADDRESS: `127.0.0.1:${port}`,
      AUTH_LOG_LEVEL: "info",
    });
  });
  afterAll(() => daemon?.stop());

  it("serves /metrics on its own listener, counting the main listener's requests", async () => {
    await fetch(`${daemon.url}/api/auth/ok`);
    const res = await fetch(`${metricsURL}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(
      /authd_http_requests_total\{route="\/api\/auth\/ok",method="GET",status="200"\} \d+/,
    );
    expect(daemon.output()).toContain(`${metricsURL}/metrics`);
  });

  it("answers 404 for /metrics on the public listener, and for anything else on the metrics listener", async () => {
    const publicMetrics = await fetch(`${daemon.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.text()).not.toContain("authd_http_requests_total");
    expect((await fetch(`${metricsURL}/api/auth/get-session`)).status).toBe(404);
    expect((await fetch(`${metricsURL}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("refuses a malformed address as bad configuration (exit 2, naming the variable)", async () => {
    const res = await runCli(["config", "check"], { env: { AUTH_METRICS_ADDRESS: "9464" } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("AUTH_METRICS_ADDRESS");
    expect(res.stderr).toContain("HOST:PORT");
  });

  it("stops serve with one line naming the address when the metrics port is taken", async () => {
    const taken = daemon.url.replace("http://", "");
    const res = await runCli(["serve", "--port", String(await freePort())], {
      env: { AUTH_METRICS_ADDRESS: taken, AUTH_DATABASE_URL: "sqlite://:memory:", AUTH_HOST: "127.0.0.1" },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`cannot listen on ${taken}`);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
