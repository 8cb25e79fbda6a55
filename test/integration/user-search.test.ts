import { afterAll, beforeAll, expect, it } from "vitest";
import { searchUsers, USER_COUNT_CAP, type UserSearchRequest } from "../../src/services/user-search.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { type DirectoryUser, insertDirectoryUsers, insertOrganizations } from "../helpers/directory.ts";

// The operators' user search (web console, `authd users list`): what each search and filter finds, the
// orders, the cursors, and that SQLite's choice of which condition drives the query (user-search-plan.ts)
// never changes an answer: a few thousand generated users are searched both ways and checked against the
// same question asked of the list in JavaScript.

const DAY_MS = 86_400_000;

describeEachDialect("user search", (dialect) => {
  let t: TestContext;
  let now: number;
  const search = (request: Omit<UserSearchRequest, "limit"> & { limit?: number }) =>
    searchUsers(t.ctx, { limit: 50, ...request });
  const ids = async (request: Omit<UserSearchRequest, "limit"> & { limit?: number }) =>
    (await search(request)).items.map((user) => user.id);

  beforeAll(async () => {
    t = await createTestContext({ dialect });
    now = t.ctx.now();
    await insertOrganizations(t.ctx.db, ["org-a", "org-b"], now);
    const at = (n: number) => now - 10 * DAY_MS + n * 1000;
    await insertDirectoryUsers(t.ctx.db, [
      {
        id: "u-alice",
        email: "alice@acme.test",
        name: "Alice Archer",
        username: "ally",
        createdAt: at(1),
        role: "admin",
      },
      {
        ...{ id: "u-bob", email: "bob@globex.test", name: "bob Brown", createdAt: at(2), emailVerified: false },
        ...{ banned: true, twoFactor: true, passkeys: 2, providers: ["credential"], organizations: ["org-a"] },
      },
      {
        ...{ id: "u-carol", email: "carol@acme.test", name: "Carol Cooper", createdAt: at(3), role: "support,user" },
        ...{
          banned: true,
          banExpires: now - 1000,
          providers: ["github", "credential"],
          organizations: ["org-a", "org-b"],
        },
      },
      {
        id: "u-dave",
        email: "dave@example.com",
        name: "dave davis",
        createdAt: at(4),
        role: null,
        providers: ["github"],
      },
      {
        id: "u-pct",
        email: "pct@example.com",
        name: "100%_off",
        createdAt: at(5),
        banned: true,
        banExpires: now + DAY_MS,
      },
      { id: "u-under", email: "under_score@example.com", name: "Under Score", createdAt: at(5) },
    ]);
  });
  afterAll(() => t.close());

  it("finds a user by the start of the email, username or name (case ignored) or by the exact id", async () => {
    expect(await ids({ search: "ALICE@" })).toEqual(["u-alice"]);
    expect(await ids({ search: "all" })).toEqual(["u-alice"]);
    expect(await ids({ search: "carol coo" })).toEqual(["u-carol"]);
    expect(await ids({ search: "u-dave" })).toEqual(["u-dave"]);
    expect(await ids({ search: "  BOB  " })).toEqual(["u-bob"]);
    // Not a prefix: found only when asked to match anywhere.
    expect(await ids({ search: "archer" })).toEqual([]);
    expect(await ids({ search: "archer", match: "contains" })).toEqual(["u-alice"]);
    expect(await ids({ search: "@acme.test", match: "contains", sort: "email" })).toEqual(["u-alice", "u-carol"]);
  });

  it("matches % and _ as themselves, never as patterns", async () => {
    expect(await ids({ search: "100%_" })).toEqual(["u-pct"]);
    expect(await ids({ search: "%" })).toEqual([]);
    expect(await ids({ search: "under_" })).toEqual(["u-under"]);
    expect(await ids({ search: "under%" })).toEqual([]);
    expect(await ids({ search: "_", match: "contains", sort: "email" })).toEqual(["u-pct", "u-under"]);
  });

  it("filters by ban in force, verification, second factor, passkey, provider, organization and role", async () => {
    const sorted = async (request: Omit<UserSearchRequest, "limit">) => (await ids(request)).sort();
    expect(await sorted({ banned: true })).toEqual(["u-bob", "u-pct"]);
    expect(await sorted({ banned: false })).toEqual(["u-alice", "u-carol", "u-dave", "u-under"]);
    expect(await sorted({ emailVerified: false })).toEqual(["u-bob"]);
    expect(await sorted({ twoFactor: true })).toEqual(["u-bob"]);
    expect((await sorted({ twoFactor: false })).includes("u-bob")).toBe(false);
    expect(await sorted({ passkey: true })).toEqual(["u-bob"]);
    expect(await sorted({ passkey: false })).toHaveLength(5);
    expect(await sorted({ provider: "github" })).toEqual(["u-carol", "u-dave"]);
    expect(await sorted({ organization: "org-a" })).toEqual(["u-bob", "u-carol"]);
    expect(await sorted({ organization: "org-b-slug" })).toEqual(["u-carol"]);
    expect(await sorted({ role: "admin" })).toEqual(["u-alice"]);
    expect(await sorted({ role: "support" })).toEqual(["u-carol"]);
    // The default role: held by those naming it and by those with none.
    expect(await sorted({ role: "user" })).toEqual(["u-bob", "u-carol", "u-dave", "u-pct", "u-under"]);
    expect(await sorted({ role: "nobody" })).toEqual([]);
    expect(await sorted({ organization: "org-a", provider: "credential", banned: true })).toEqual(["u-bob"]);
    await expect(search({ organization: "no-such-org" })).rejects.toMatchObject({ code: "ORGANIZATION_NOT_FOUND" });
  });

  it("sorts by creation, email or name (case ignored), the id breaking ties", async () => {
    expect(await ids({})).toEqual(["u-under", "u-pct", "u-dave", "u-carol", "u-bob", "u-alice"]);
    expect(await ids({ direction: "asc" })).toEqual(["u-alice", "u-bob", "u-carol", "u-dave", "u-pct", "u-under"]);
    expect(await ids({ sort: "email" })).toEqual(["u-alice", "u-bob", "u-carol", "u-dave", "u-pct", "u-under"]);
    expect(await ids({ sort: "email", direction: "desc" })).toEqual([
      ...["u-under", "u-pct", "u-dave", "u-carol", "u-bob", "u-alice"],
    ]);
    expect(await ids({ sort: "name" })).toEqual(["u-pct", "u-alice", "u-bob", "u-carol", "u-dave", "u-under"]);
  });

  it("pages by cursor forwards and back, and ignores a cursor forged or made for another sort", async () => {
    const first = await search({ sort: "name", limit: 4 });
    expect(first.previous).toBeNull();
    const second = await search({ sort: "name", limit: 4, cursor: first.next ?? "" });
    expect(second.next).toBeNull();
    expect([...first.items, ...second.items].map((u) => u.id)).toEqual(await ids({ sort: "name" }));
    const back = await search({ sort: "name", limit: 4, cursor: second.previous ?? "" });
    expect(back.items.map((u) => u.id)).toEqual(first.items.map((u) => u.id));
    expect(back.previous).toBeNull();
    expect(back.next).not.toBeNull();
    for (const cursor of [first.next ?? "", "after.bm90IGpzb24", "before.WzEsMiwzXQ", "x".repeat(300)]) {
      const other = await search({ sort: "email", limit: 4, cursor });
      expect(other.items.map((u) => u.id)).toEqual((await ids({ sort: "email" })).slice(0, 4));
    }
    const offset = await search({ limit: 2, offset: 2 });
    expect(offset.items.map((u) => u.id)).toEqual(["u-dave", "u-carol"]);
    expect(offset.previous).not.toBeNull();
  });
});

describeEachDialect("user search over generated users", (dialect) => {
  // Enough users that each condition may drive the query or be checked row by row (the limit is 1,000 here).
  const COUNT = 12_000;
  let t: TestContext;
  let users: DirectoryUser[];
  let now: number;

  beforeAll(async () => {
    t = await createTestContext({ dialect });
    now = t.ctx.now();
    const share = (n: number, salt: number) => ((n * 7919 + salt * 104_729) % 1000) / 1000;
    users = Array.from({ length: COUNT }, (_, n) => ({
      id: `g${String(n).padStart(5, "0")}`,
      email: `${["ann", "ben", "cat", "dan"][n % 4]}${n}@${share(n, 1) < 0.5 ? "a" : "b"}.test`,
      name: `${["Ann", "Ben", "Cat", "Dan"][(n >> 2) % 4]} ${n % 97}`,
      username: share(n, 2) < 0.3 ? `user${n}` : null,
      createdAt: now - COUNT * 1000 + Math.floor(n / 3) * 1000,
      emailVerified: share(n, 3) >= 0.2,
      role: share(n, 4) < 0.01 ? "admin" : share(n, 4) < 0.5 ? "user" : null,
      banned: share(n, 5) < 0.08,
      banExpires: share(n, 6) < 0.3 ? now - 1 : null,
      twoFactor: share(n, 7) < 0.06,
      passkeys: share(n, 8) < 0.05 ? 1 + (n % 2) : 0,
      providers: [...(share(n, 9) < 0.3 ? ["github"] : []), ...(share(n, 10) < 0.7 ? ["credential"] : [])],
      organizations: [...(share(n, 11) < 0.15 ? ["big"] : []), ...(share(n, 12) < 0.01 ? ["small"] : [])],
    }));
    await insertOrganizations(t.ctx.db, ["big", "small"], now);
    await insertDirectoryUsers(t.ctx.db, users);
  }, 120_000);
  afterAll(() => t.close());

  function expected(request: Omit<UserSearchRequest, "limit">): DirectoryUser[] {
    const text = request.search?.toLowerCase();
    const matching = users.filter(
      (u) =>
        (!text ||
          u.id === request.search ||
          u.email.startsWith(text) ||
          (u.username ?? "").startsWith(text) ||
          (u.name ?? "").toLowerCase().startsWith(text)) &&
        (request.banned === undefined ||
          request.banned === Boolean(u.banned && (u.banExpires === null || (u.banExpires ?? 0) > now))) &&
        (request.emailVerified === undefined || request.emailVerified === u.emailVerified) &&
        (request.twoFactor === undefined || request.twoFactor === u.twoFactor) &&
        (request.passkey === undefined || request.passkey === (u.passkeys ?? 0) > 0) &&
        (request.provider === undefined || (u.providers ?? []).includes(request.provider)) &&
        (request.organization === undefined || (u.organizations ?? []).includes(request.organization)) &&
        (request.role === undefined ||
          (u.role ?? "").split(",").includes(request.role) ||
          (request.role === "user" && !u.role)),
    );
    const key = (u: DirectoryUser): string | number =>
      request.sort === "email" ? u.email : request.sort === "name" ? (u.name ?? "").toLowerCase() : u.createdAt;
    const sign =
      (request.direction ?? (request.sort && request.sort !== "created" ? "asc" : "desc")) === "asc" ? 1 : -1;
    return matching.sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1));
  }

  const REQUESTS: Omit<UserSearchRequest, "limit">[] = [
    {},
    { search: "ann1" },
    { search: "cat" },
    { search: "ben 4" },
    { search: "user1" },
    { banned: true },
    { banned: false, sort: "email" },
    { emailVerified: false },
    { twoFactor: true, sort: "name" },
    { passkey: true },
    { passkey: false, emailVerified: false },
    { provider: "github" },
    { organization: "big" },
    { organization: "small", sort: "name", direction: "desc" },
    { role: "admin" },
    { role: "user", sort: "email", direction: "desc" },
    { search: "dan", emailVerified: false },
    { search: "a", passkey: true, provider: "github" },
    { banned: true, twoFactor: true },
    { organization: "big", provider: "github", emailVerified: true },
    { passkey: true, provider: "github", sort: "name" },
    { search: "ann", banned: false, role: "user", direction: "asc" },
  ];

  it("answers every search as the same question asked of the list, first page and total", async () => {
    for (const request of REQUESTS) {
      const want = expected(request);
      const page = await searchUsers(t.ctx, { ...request, limit: 50 });
      expect(
        page.items.map((u) => u.id),
        JSON.stringify(request),
      ).toEqual(want.slice(0, 50).map((u) => u.id));
      // One condition is counted exactly up to the cap; several may be counted from a sample: at least.
      const conditions = Object.keys(request).filter((key) => key !== "sort" && key !== "direction").length;
      if (conditions <= 1 || !page.totalCapped) {
        expect(page.total, JSON.stringify(request)).toBe(Math.min(want.length, USER_COUNT_CAP));
        expect(page.totalCapped, JSON.stringify(request)).toBe(want.length > USER_COUNT_CAP);
      } else expect(page.total, JSON.stringify(request)).toBeLessThanOrEqual(want.length);
    }
  }, 60_000);

  it("says 'at least' when several filters each hold many users, never more than match", async () => {
    const request = { role: "user", emailVerified: true, banned: false };
    const want = expected(request);
    const page = await searchUsers(t.ctx, { ...request, limit: 50 });
    expect(page.items.map((u) => u.id)).toEqual(want.slice(0, 50).map((u) => u.id));
    expect(page.total).toBeLessThanOrEqual(Math.min(want.length, USER_COUNT_CAP));
    if (!page.totalCapped) expect(page.total).toBe(want.length);
    else expect(page.total).toBeGreaterThan(0);
  });

  it("walks every page of a search by cursor, each user once, in order, and back again", async () => {
    for (const request of [
      { passkey: true },
      { search: "ben", sort: "name" as const },
      { search: "cat", sort: "email" as const, direction: "desc" as const },
      { banned: true, sort: "email" as const },
      { emailVerified: false, sort: "name" as const },
    ]) {
      const want = expected(request).map((u) => u.id);
      const pages: string[][] = [];
      let cursor: string | undefined;
      let previous: string | null = null;
      for (let count = 0; count < 100; count++) {
        const page = await searchUsers(t.ctx, { ...request, limit: 97, cursor });
        pages.push(page.items.map((u) => u.id));
        previous = page.previous;
        if (!page.next) break;
        cursor = page.next;
      }
      expect(pages.flat(), JSON.stringify(request)).toEqual(want);
      // Back from the last page by `previous`: the same pages, the first one saying there is none before it.
      for (let index = pages.length - 2; index >= 0; index--) {
        const page = await searchUsers(t.ctx, { ...request, limit: 97, cursor: previous ?? "" });
        expect(
          page.items.map((u) => u.id),
          `${JSON.stringify(request)} page ${index}`,
        ).toEqual(pages[index]);
        previous = page.previous;
      }
      expect(previous, JSON.stringify(request)).toBeNull();
    }
  }, 120_000);
});
