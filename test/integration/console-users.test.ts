import { afterAll, beforeAll, expect, it } from "vitest";
import { eventsOfType } from "../helpers/audit.ts";
import { type ConsoleUser, consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { insertDirectoryUsers, insertOrganizations } from "../helpers/directory.ts";
import { browse, formTokenOf, hiddenFields, postForm } from "../helpers/pages.ts";

// The console's users screen (issue 32): the search with its filters, order and cursors, and the bulk ban,
// unban and sign-out through a confirmation, from the admin's side and the attacker's: signed out, no admin
// permission, a narrower role, a form without its token or from another origin, forged ids and return paths,
// and stored values drawn as text.

const ROLES = { viewer: { user: ["list"] }, support: { user: ["list", "ban"] } };

describeEachDialect("the console's users screen", (dialect) => {
  let t: TestContext;
  let admin: ConsoleUser;
  const banned = async (id: string) =>
    Boolean((await t.ctx.db.selectFrom("user").select("banned").where("id", "=", id).executeTakeFirst())?.banned);
  const alive = async (agent: Awaited<ReturnType<typeof signUp>>["agent"]) =>
    (await agent.get("/get-session", { query: { disableCookieCache: true } })).body?.session != null;
  /** The confirmation's form for `ids`, as the list's boxes send them (GET). */
  const confirmation = (agent: ConsoleUser["agent"], action: string, ids: string[], back = "") =>
    browse(
      agent,
      `/console/users-bulk/${action}?${new URLSearchParams([...ids.map((id) => ["user", id]), ["back", back]])}`,
    );

  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { admin: { roles: ROLES } } });
    admin = await consoleUser(t, "admin", `console.admin.${dialect}@example.com`);
    const now = t.ctx.now();
    await insertOrganizations(t.ctx.db, ["cu-org"], now);
    await insertDirectoryUsers(t.ctx.db, [
      { id: "cu-ann", email: "cu.ann@example.com", name: "Ann", createdAt: now - 4000, providers: ["github"] },
      { id: "cu-ben", email: "cu.ben@example.com", name: "Ben", createdAt: now - 3000, banned: true, twoFactor: true },
      { id: "cu-cat", email: "cu.cat@example.com", name: "<b>Cat</b>", createdAt: now - 2000, emailVerified: false },
      { id: "cu-dan", email: "cu.dan@example.com", name: "Dan", createdAt: now - 1000, organizations: ["cu-org"] },
    ]);
  });
  afterAll(() => t.close());

  it("filters, orders and pages the users by cursor, keeping the query", async () => {
    const banned = await browse(admin.agent, "/console/users?search=cu.&banned=yes");
    expect(banned.status).toBe(200);
    expect(banned.text).toContain("cu.ben@example.com");
    expect(banned.text).not.toContain("cu.ann@example.com");
    const org = await browse(admin.agent, "/console/users?org=cu-org-slug");
    expect(org.text).toContain("cu.dan@example.com");
    expect(org.text).toContain("1–1 of 1");
    const unknown = await browse(admin.agent, "/console/users?org=nowhere");
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain("No organization has this id or slug.");

    // A page of two, A to Z by email: the next page's link carries the cursor and the search
    const first = await browse(admin.agent, "/console/users?search=cu.&sort=email");
    expect(first.text.indexOf("cu.ann@")).toBeLessThan(first.text.indexOf("cu.dan@"));
    const page = await t.ctx.db.selectFrom("user").select("id").where("email", "like", "cu.%").execute();
    expect(page).toHaveLength(4);
    const desc = await browse(admin.agent, "/console/users?search=cu.&sort=email&order=desc");
    expect(desc.text.indexOf("cu.dan@")).toBeLessThan(desc.text.indexOf("cu.ann@"));
    expect(desc.text).toContain("1–4 of 4");
  });

  it("follows the next and previous links of a long list", async () => {
    const now = t.ctx.now();
    const many = Array.from({ length: 120 }, (_, i) => ({
      id: `cu-many-${String(i).padStart(3, "0")}`,
      email: `cu.many.${String(i).padStart(3, "0")}@example.com`,
      createdAt: now - 100_000 + i,
    }));
    await insertDirectoryUsers(t.ctx.db, many);
    const first = await browse(admin.agent, "/console/users?search=cu.many&sort=email");
    expect(first.text).toContain("1–50 of 120");
    const next = /<a href="([^"]+)" rel="next">/.exec(first.text)?.[1]?.replace(/&amp;/g, "&") ?? "";
    expect(next).toContain("search=cu.many");
    const second = await browse(admin.agent, next);
    expect(second.text).toContain("51–100 of 120");
    expect(second.text).toContain("cu.many.050@");
    expect(second.text).not.toContain("cu.many.049@");
    const previous = /<a href="([^"]+)" rel="prev">/.exec(second.text)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const back = await browse(admin.agent, previous);
    expect(back.text).toContain("1–50 of 120");
    expect(back.text).toContain("cu.many.000@");
  });

  it("bans two users after a confirmation: their sessions end, each ban is logged naming the admin", async () => {
    // Given two signed-in users found by a search
    const [one, two] = [await signUp(t), await signUp(t)];
    const list = await browse(admin.agent, `/console/users?search=${encodeURIComponent(one.email)}`);
    expect(list.text).toContain(`value="${one.user.id}"`);

    // When the admin chooses them, sees who they are, and confirms with a reason and a length
    const confirm = await confirmation(admin.agent, "ban", [one.user.id, two.user.id], "search=user.&banned=no");
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(one.email);
    expect(confirm.text).toContain(two.email);
    expect(await banned(one.user.id)).toBe(false);
    const fields = hiddenFields(confirm.text);
    expect([fields["user-0"], fields["user-1"]]).toEqual([one.user.id, two.user.id]);
    const done = await postForm(admin.agent, "/console/users-bulk/ban", {
      ...fields,
      reason: "spam",
      expiresIn: "86400",
    });

    // Then both are banned and signed out, and the admin is back on the same search with the notice
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(
      "/console/users?search=user.&banned=no&notice=console.users.notice.banned",
    );
    expect([await banned(one.user.id), await banned(two.user.id)]).toEqual([true, true]);
    expect([await alive(one.agent), await alive(two.agent)]).toEqual([false, false]);
    const events = (await eventsOfType(t.ctx, "user_banned")).filter((e) =>
      [one.user.id, two.user.id].includes(e.subjectId ?? ""),
    );
    expect(events.map((e) => [e.actorType, e.actorId])).toEqual([
      ["admin", admin.id],
      ["admin", admin.id],
    ]);

    // And unbanning and signing out go the same way
    const unban = hiddenFields((await confirmation(admin.agent, "unban", [one.user.id])).text);
    expect((await postForm(admin.agent, "/console/users-bulk/unban", unban)).status).toBe(303);
    expect(await banned(one.user.id)).toBe(false);
    const three = await signUp(t);
    const revoke = hiddenFields((await confirmation(admin.agent, "revoke-sessions", [three.user.id])).text);
    const revoked = await postForm(admin.agent, "/console/users-bulk/revoke-sessions", revoke);
    expect(revoked.headers.get("location")).toBe("/console/users?notice=console.users.notice.signedOut");
    expect(await alive(three.agent)).toBe(false);
  });

  it("refuses banning the signed-in admin, redrawing the confirmation and changing no one", async () => {
    const victim = await signUp(t);
    const fields = hiddenFields((await confirmation(admin.agent, "ban", [victim.user.id, admin.id])).text);
    const refused = await postForm(admin.agent, "/console/users-bulk/ban", fields);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("You cannot ban your own account");
    expect(refused.text).toContain(victim.email);
    expect([await banned(victim.user.id), await banned(admin.id)]).toEqual([false, false]);
    expect(await alive(victim.agent)).toBe(true);
  });

  it("turns away the signed-out, users without admin permission and roles without the action", async () => {
    const target = await signUp(t);
    const ids = [target.user.id];
    // Signed out: through sign-in; a post without the form's cookie is refused
    expect((await confirmation(t.agent(), "ban", ids)).status).toBe(302);
    const strangerPost = await postForm(t.agent(), "/console/users-bulk/ban", { "user-0": target.user.id });
    expect(strangerPost.status).toBe(403);
    // A plain user: refused
    const plain = await signUp(t);
    expect((await confirmation(plain.agent, "ban", ids)).status).toBe(403);
    const plainToken = await formTokenOf(plain.agent, "/account");
    const plainPost = await postForm(plain.agent, "/console/users-bulk/ban", {
      csrf: plainToken,
      "user-0": target.user.id,
    });
    expect(plainPost.status).toBe(403);
    // A viewer may list but not ban: no boxes on the list, the confirmation and the post refused
    const viewer = await consoleUser(t, "viewer");
    const list = await browse(viewer.agent, "/console/users");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('type="checkbox" name="user"');
    expect((await confirmation(viewer.agent, "ban", ids)).status).toBe(403);
    const viewerToken = await formTokenOf(viewer.agent, "/console/users");
    const viewerPost = await postForm(viewer.agent, "/console/users-bulk/ban", {
      csrf: viewerToken,
      "user-0": target.user.id,
    });
    expect(viewerPost.status).toBe(403);
    // Support may ban, but not end sessions
    const support = await consoleUser(t, "support");
    expect((await confirmation(support.agent, "revoke-sessions", ids)).status).toBe(403);
    const supportToken = await formTokenOf(support.agent, "/console/users");
    const supportPost = await postForm(support.agent, "/console/users-bulk/revoke-sessions", {
      csrf: supportToken,
      "user-0": target.user.id,
    });
    expect(supportPost.status).toBe(403);
    expect(await banned(target.user.id)).toBe(false);
    expect(await alive(target.agent)).toBe(true);
  });

  it("refuses a form without its token, with another browser's, or from another origin", async () => {
    const target = await signUp(t);
    const fields = hiddenFields((await confirmation(admin.agent, "ban", [target.user.id])).text);
    const { csrf: _token, ...untokened } = fields;
    expect((await postForm(admin.agent, "/console/users-bulk/ban", untokened)).status).toBe(403);
    const other = await consoleUser(t);
    const foreign = { ...fields, csrf: await formTokenOf(other.agent, "/console/users") };
    expect((await postForm(admin.agent, "/console/users-bulk/ban", foreign)).status).toBe(403);
    const cross = await postForm(admin.agent, "/console/users-bulk/ban", fields, { origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(await banned(target.user.id)).toBe(false);
    expect(await alive(target.agent)).toBe(true);
  });

  it("takes forged ids, too many ids and a forged return path without harm", async () => {
    const target = await signUp(t);
    const confirm = await confirmation(admin.agent, "ban", ["no-such-user", target.user.id], "//evil.example/x");
    expect(confirm.text).toContain("1 of the users chosen no longer exist");
    const fields = hiddenFields(confirm.text);
    expect(fields.back).toBe("");
    const forged = { ...fields, back: "notice=console.users.notice.banned&search=a&x=https://evil.example" };
    const done = await postForm(admin.agent, "/console/users-bulk/unban", forged);
    expect(done.headers.get("location")).toBe("/console/users?search=a&notice=console.users.notice.unbanned");
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`user-${i}`, `forged-${i}`]));
    const refused = await postForm(admin.agent, "/console/users-bulk/ban", { csrf: fields.csrf ?? "", ...tooMany });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Something in the form is not valid");
    const none = await postForm(admin.agent, "/console/users-bulk/ban", { csrf: fields.csrf ?? "" });
    expect(none.status).toBe(400);
    expect(none.text).toContain("No user was chosen");
    const nothing = await confirmation(admin.agent, "ban", []);
    expect(nothing.text).toContain("No user was chosen");
    expect(nothing.text).not.toContain('name="user-0"');
    expect(await banned(target.user.id)).toBe(false);
  });

  it("draws stored names and emails as text on the list and the confirmation", async () => {
    const list = await browse(admin.agent, "/console/users?search=cu.cat");
    expect(list.text).toContain("&lt;b&gt;Cat&lt;/b&gt;");
    expect(list.text).not.toContain("<b>Cat</b>");
    const confirm = await confirmation(admin.agent, "ban", ["cu-cat"]);
    expect(confirm.text).toContain("&lt;b&gt;Cat&lt;/b&gt;");
    expect(confirm.text).not.toContain("<b>Cat</b>");
  });
});
