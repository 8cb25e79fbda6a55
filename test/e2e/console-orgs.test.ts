import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { uniqueEmail } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";

// The console's organizations, API keys and OpenID clients in headless Chromium against the compiled binary:
// an admin changes a member's role and the organization's screen shows it, registers a client and is shown
// its secret once; axe-core and screenshots of every one of these screens, light and dark, phone and desktop.

const SHOTS = join(ARTIFACTS_DIR, "console-orgs");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = randomBytes(32).toString("base64url");

let daemon: Daemon;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = {
    AUTH_BASE_URL: base,
    AUTH_RATE_LIMIT: "off",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_OIDC_PROVIDER: "on",
    AUTH_DATABASE_URL: `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-orgs-")), "auth.db")}`,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

const serverCall = (path: string, body: unknown) => users().asServer(path, body);

/** A new user over HTTP (their agent signed in), given `role` by the server when one is named. */
const newUser = (label: string, role?: string) => users().signUp(uniqueEmail(label), `Console ${label}`, role);

/** An organization with an owner, a member and an open invitation; answers its id and the member's email. */
async function organizationWithMember(name: string) {
  const owner = await newUser("owner");
  const slug = `org-${Math.random().toString(36).slice(2, 10)}`;
  const created = await owner.agent.post("/organization/create", { name, slug });
  expect(created.status).toBe(200);
  const organizationId = (created.json as { id: string }).id;
  const member = await newUser("member");
  const added = await serverCall("/organization/add-member", { userId: member.id, role: "member", organizationId });
  expect(added.status).toBe(200);
  const invited = await owner.agent.post("/organization/invite-member", {
    email: uniqueEmail("invitee"),
    role: "admin",
    organizationId,
  });
  expect(invited.status).toBe(200);
  return { organizationId, memberEmail: member.email, member, ownerEmail: owner.email };
}

/** Sign the context's browser in as `email` (the session cookie for every page it opens). */
const signIn = (context: BrowserContext, email: string) => users().signIn(context, email);

describe("the console's organizations, API keys and clients in a browser", () => {
  it("an admin changes a member's role and the organization's screen shows it", async () => {
    const admin = await newUser("admin-roles", "admin");
    const { organizationId, memberEmail, ownerEmail } = await organizationWithMember("Role Change Inc");
    const context = await browser.newContext();
    await signIn(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console/organizations?search=${encodeURIComponent("Role Change")}`);
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByRole("link", { name: "Role Change Inc" }).click();
    await page.waitForURL(new RegExp(`/console/organizations/${organizationId}$`));
    await page.locator("html[data-hydrated]").waitFor();

    const row = page.locator("tr", { hasText: memberEmail });
    await row.getByLabel(`New role for ${memberEmail}`).selectOption("admin");
    await row.getByRole("button", { name: "Change role" }).click();
    await page.waitForURL(/notice=console\.organizations\.notice\.roleChanged/);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("status").textContent()).toBe("The member's role was changed.");
    const changed = page.locator("tr", { hasText: memberEmail });
    expect(await changed.locator(".authd-console-role").textContent()).toBe("admin");
    await shoot(page, { path: join(SHOTS, "console-organization-role-changed.png"), fullPage: true });

    // The only owner cannot be demoted: the refusal is drawn beside the owner's row, and the role stays.
    const ownerRow = page.locator("tr", { hasText: ownerEmail });
    await ownerRow.getByLabel(`New role for ${ownerEmail}`).selectOption("member");
    await ownerRow.getByRole("button", { name: "Change role" }).click();
    await page.getByRole("alert").filter({ hasText: "keeps at least one owner" }).waitFor();
    expect(await page.locator("tr", { hasText: ownerEmail }).locator(".authd-console-role").textContent()).toBe(
      "owner",
    );
    await shoot(page, { path: join(SHOTS, "console-organization-last-owner.png"), fullPage: true });
    await context.close();
  }, 60_000);

  it("an admin registers a client in the console and is shown its secret once", async () => {
    const admin = await newUser("admin-clients", "admin");
    const context = await browser.newContext();
    await signIn(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console/clients`);
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Grafana");
    await page.getByLabel("Redirect URIs", { exact: true }).fill("https://grafana.example.com/login/generic_oauth");
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByRole("heading", { level: 1, name: "Grafana" }).waitFor();
    const secret = await page.getByLabel("Client secret", { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
    await shoot(page, { path: join(SHOTS, "console-client-secret-once.png"), fullPage: true });
    await page.getByRole("link", { name: "All clients" }).click();
    await page.getByRole("link", { name: "Grafana" }).click();
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.content()).not.toContain(secret);
    await context.close();
  }, 60_000);

  it("has no serious or critical accessibility violation on its screens, light and dark", async () => {
    const admin = await newUser("admin-axe", "admin");
    const { organizationId, member } = await organizationWithMember("Axe Works");
    expect((await member.agent.post("/api-key/create", { name: "deploy" })).status).toBe(200);
    const client = await serverCall("/admin/oauth-clients", {
      client_name: "Outline",
      redirect_uris: ["https://outline.example.com/auth/oidc.callback"],
    });
    expect(client.status).toBe(200);
    const clientId = (client.json as { client_id: string }).client_id;
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "console",
      views: [
        { name: "organizations", url: `${base}/console/organizations` },
        { name: "organization", url: `${base}/console/organizations/${organizationId}` },
        { name: "api-keys", url: `${base}/console/api-keys` },
        { name: "clients", url: `${base}/console/clients` },
        { name: "client", url: `${base}/console/clients/${clientId}` },
      ],
      prepare: (context) => signIn(context, admin.email),
    });
    expect(found).toEqual([]);
  }, 240_000);
});
