import http from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { launchChromium } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { documentedServerBlock, type RunningNginx, startNginx } from "../helpers/nginx.ts";

// Forward-auth with authd's own pages as the sign-in page: nginx (the block of docs/proxies.md) in front of
// a protected upstream and the compiled binary, no AUTH_FORWARD_AUTH_SIGN_IN_URL. A signed-out browser
// asking for a protected page is sent through the sign-in page and back to that page.

describe("forward-auth through authd's pages behind nginx", () => {
  let daemon: Daemon;
  let upstream: http.Server;
  let nginx: RunningNginx;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    upstream = http.createServer((req, res) => {
      const who = req.headers["x-auth-user-email"] ?? "nobody";
      res.writeHead(200, { "content-type": "text/html" }).end(`<h1>Protected ${req.url} for ${who}</h1>`);
    });
    await new Promise<void>((done) => upstream.listen(0, "127.0.0.1", done));
    const upstreamPort = (upstream.address() as { port: number }).port;
    // The browser reaches authd only through nginx, so the base URL is nginx's.
    daemon = await startDaemon([buildBinary()], {
      AUTH_BASE_URL: base,
      AUTH_TRUSTED_PROXIES: "127.0.0.1",
      AUTH_RATE_LIMIT: "off",
    });
    nginx = await startNginx(
      documentedServerBlock(`127.0.0.1:${daemon.port}`, `127.0.0.1:${upstreamPort}`, port),
      port,
    );
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await nginx?.stop();
    await new Promise((done) => upstream?.close(done));
    await daemon?.stop();
  });

  for (const javaScript of [true, false]) {
    it(`sends a signed-out browser through the sign-in page and back (JavaScript ${javaScript ? "on" : "off"})`, async () => {
      const email = `proxied.${javaScript}.${Date.now()}@example.com`;
      const signUp = await fetch(`${daemon.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Proxied Pat", email, password: "correct-horse-battery" }),
      });
      expect(signUp.status).toBe(200);

      const context = await browser.newContext({ javaScriptEnabled: javaScript });
      const page = await context.newPage();
      await page.goto(`${base}/orders/7?tab=items`);
      await page.waitForURL(/\/account\/sign-in\?redirect=/);
      expect(new URL(page.url()).searchParams.get("redirect")).toBe(`${base}/orders/7?tab=items`);
      if (javaScript) await page.locator("html[data-hydrated]").waitFor();
      await page.getByLabel("Email address or username", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/orders/7?tab=items`);
      expect(await page.locator("h1").textContent()).toBe(`Protected /orders/7?tab=items for ${email}`);
      await context.close();
    });
  }
});
