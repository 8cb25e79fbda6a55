import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_ROUTES } from "../../src/http/console/routes.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, postForm } from "../helpers/pages.ts";

// Issue 32's attacker's side, for every route of the console's table at once (a route added later is
// covered without a test of its own): a signed-out browser is sent to sign in or refused, a user without an
// admin permission is refused every screen and every form, and an admin's form without its anti-forgery
// token, with another's, or from another origin changes nothing. Every feature is on, so every route is
// mounted; an id in a path is one that names nothing (the refusal must come first).

const concrete = (path: string) => `/console${path.replace(/:(\w+)/g, "nothing-here")}`;
const gets = CONSOLE_ROUTES.filter((route) => route.get).map((route) => concrete(route.path));
const posts = CONSOLE_ROUTES.filter((route) => route.post).map((route) => concrete(route.path));
/** Stopping an impersonation asks no admin permission: it ends the browser's own impersonation, or refuses (400). */
const STOP = "/console/stop-impersonating";

describe("every console route", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: { oidcProvider: { enabled: true }, organization: { enabled: true }, apiKey: { enabled: true } },
    });
  });
  afterAll(() => t.close());

  it("mounts every route of the table with every feature on", async () => {
    const admin = await consoleUser(t);
    for (const path of gets) expect((await browse(admin.agent, path)).status, path).not.toBe(500);
    expect(gets.length).toBeGreaterThan(8);
    expect(posts.length).toBeGreaterThan(20);
  });

  it("sends a signed-out browser to sign in from every screen, and refuses every form", async () => {
    const agent = t.agent();
    for (const path of gets) {
      const page = await browse(agent, path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get("location"), path).toMatch(/^\/account\/sign-in\?redirect=/);
    }
    const token = await formTokenOf(agent, "/sign-in");
    for (const path of posts) {
      const answer = await postForm(agent, path, { csrf: token });
      expect(path === STOP ? [400] : [302, 403], path).toContain(answer.status);
      if (answer.status === 302) expect(answer.headers.get("location"), path).toMatch(/\/account\/sign-in/);
    }
  });

  it("refuses a user without an admin permission every screen and every form (403)", async () => {
    const plain = await signUp(t);
    for (const path of gets) expect((await browse(plain.agent, path)).status, path).toBe(403);
    const token = await formTokenOf(plain.agent, "/account");
    for (const path of posts) {
      const answer = await postForm(plain.agent, path, { csrf: token, confirm: "yes" });
      if (path === STOP) {
        expect(answer.status, path).toBe(400);
        continue;
      }
      expect(answer.status, path).toBe(403);
      expect(answer.text, path).toContain("The console is for administrators");
    }
  });

  it("refuses an admin's form without its token, with another browser's token, or from another origin", async () => {
    const admin = await consoleUser(t);
    const other = await consoleUser(t);
    const othersToken = await formTokenOf(other.agent, "/console/users");
    const ownToken = await formTokenOf(admin.agent, "/console/users");
    const eventsOf = async () =>
      (await t.ctx.db.selectFrom("auditEvent").select("id").where("actorId", "=", admin.id).execute()).length;
    const before = await eventsOf();
    for (const path of posts) {
      expect((await postForm(admin.agent, path, {})).status, `${path} without a token`).toBe(403);
      expect((await postForm(admin.agent, path, { csrf: othersToken })).status, `${path} another's token`).toBe(403);
      const foreign = await postForm(admin.agent, path, { csrf: ownToken }, { origin: "https://evil.example" });
      expect(foreign.status, `${path} from another origin`).toBe(403);
      const opaque = await postForm(admin.agent, path, { csrf: ownToken }, { origin: "null" });
      expect(opaque.status, `${path} from an opaque origin`).toBe(403);
    }
    // And the refusals changed nothing: no event names this admin since.
    expect(await eventsOf()).toBe(before);
  });
});
