import { mkdtempSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAuthd, startAuthd } from "../client/helpers.ts";
import { ARTIFACTS_DIR, launchChromium, shoot } from "../helpers/browser.ts";
import {
  buildExampleApp,
  collectProblems,
  ROOT as root,
  run,
  serveStatic,
  signUpInExampleApp,
} from "../helpers/example-app.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// examples/react-app built with vite against the built client (dist/client layout), served from its own
// origin, calling a real authd on another port: CORS with credentials and cookies as in production.

describe("the example React app in headless Chromium", () => {
  let authd: RunningAuthd;
  let site: { server: Server; origin: string };
  let browser: Browser;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "authd-example-"));
    site = await serveStatic(join(work, "site"));
    authd = await startAuthd({ env: { AUTH_TRUSTED_ORIGINS: site.origin } });
    buildExampleApp(work, authd.url);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await authd?.close();
  });

  it("signs up, shows the session, keeps it across a reload, and signs out", async () => {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    const email = `example.${Date.now().toString(36)}@example.com`;

    await signUpInExampleApp(page, site.origin, { name: "Example User", email });
    expect(await page.getByTestId("user-email").textContent()).toBe(email);
    expect(await page.getByTestId("user-name").textContent()).toBe("Example User");
    await shoot(page, { path: join(ARTIFACTS_DIR, "example-app-signed-in.png") });

    // The session cookie was set by authd's origin and is sent again after a reload.
    await page.reload();
    await page.getByTestId("user-email").waitFor();
    expect(await page.getByTestId("user-email").textContent()).toBe(email);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("Signed out").waitFor();
    await page.reload();
    await page.getByText("Signed out").waitFor();
    await shoot(page, { path: join(ARTIFACTS_DIR, "example-app-signed-out.png") });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("type-checks against the shipped declarations (dist/client/*.d.ts), not the sources", () => {
    const tsconfig = join(work, "tsconfig.json");
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(root, "examples/react-app/tsconfig.json"),
        compilerOptions: {
          paths: {
            "authd/client": [join(work, "client/index.d.ts")],
            "authd/react": [join(work, "client/react.d.ts")],
          },
        },
        include: [join(root, "examples/react-app/src")],
      }),
    );
    expect(() => run(join(root, "node_modules/.bin/tsc"), ["-p", tsconfig])).not.toThrow();
  });

  it("shows the server's message when sign-in fails", async () => {
    const page = await browser.newPage();
    await page.goto(site.origin);
    await page.getByText("Signed out").waitFor();
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("wrong-password-123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe("Invalid email or password");
    await page.close();
  });

  it("turns two-factor on and signs in with a TOTP code through Better Auth's twoFactorClient", async () => {
    const page = await browser.newPage();
    const email = `two.factor.${Date.now().toString(36)}@example.com`;
    const password = "correct-horse-battery";
    await page.goto(site.origin);
    await page.getByText("Signed out").waitFor();
    await page.getByLabel("Name").fill("Two Factor");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByTestId("user-email").waitFor();

    // Enrol: the password, then the first code from the URI the page shows.
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Enable two-factor" }).click();
    await page.getByTestId("totp-uri").waitFor();
    const key = keyOf((await page.getByTestId("totp-uri").textContent()) ?? "");
    await page.getByLabel("Code").fill(totp(key, Date.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByTestId("two-factor-status").waitFor();
    expect(await page.getByTestId("two-factor-status").textContent()).toBe("Two-factor is on");

    // Sign in again: the password alone stops at the second factor (onTwoFactorRedirect).
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("Signed out").waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Two-factor code required").waitFor();
    expect(await page.getByTestId("user-email").count()).toBe(0);

    const valid = new Set([-1, 0, 1].map((offset) => totp(key, Date.now(), offset)));
    const wrong = ["000000", "111111", "222222", "333333"].find((code) => !valid.has(code)) ?? "";
    await page.getByLabel("Authentication code").fill(wrong);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe("Invalid code");

    await page.getByLabel("Authentication code").fill(totp(key, Date.now()));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByTestId("user-email").waitFor();
    expect(await page.getByTestId("user-email").textContent()).toBe(email);
    await shoot(page, { path: join(ARTIFACTS_DIR, "example-app-two-factor.png") });
    await page.close();
  });
});
