import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { insertDirectoryUsers, insertOrganizations } from "../helpers/directory.ts";
import { runCli } from "./run.ts";

// `authd users list` asks what the web console's users list asks: the same search, filters, sorts and
// cursors (the service is tested on both dialects in test/integration/user-search.test.ts; here the flags).

let t: TestContext;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestContext();
  env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
  const now = t.ctx.now();
  await insertOrganizations(t.ctx.db, ["acme"], now);
  await insertDirectoryUsers(t.ctx.db, [
    { id: "c-ann", email: "ann@example.com", name: "Ann", createdAt: now - 3000, role: "admin", providers: ["github"] },
    { id: "c-ben", email: "ben@example.com", name: "Ben", createdAt: now - 2000, banned: true, twoFactor: true },
    { id: "c-cat", email: "cat@example.com", name: "Cat", createdAt: now - 1000, emailVerified: false, passkeys: 1 },
    { id: "c-dan", email: "dan@example.com", name: "Dan", createdAt: now, organizations: ["acme"] },
  ]);
});
afterAll(() => t.close());

async function listed(...flags: string[]): Promise<string[]> {
  const result = await runCli(["users", "list", ...flags, "--json"], { env });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ id: string }[]>().map((user) => user.id);
}

it("users list takes the console's filters as flags", async () => {
  expect(await listed()).toEqual(["c-dan", "c-cat", "c-ben", "c-ann"]);
  expect(await listed("--banned")).toEqual(["c-ben"]);
  expect(await listed("--no-banned", "--sort", "email", "--order", "desc")).toEqual(["c-dan", "c-cat", "c-ann"]);
  expect(await listed("--no-verified")).toEqual(["c-cat"]);
  expect(await listed("--two-factor")).toEqual(["c-ben"]);
  expect(await listed("--passkey")).toEqual(["c-cat"]);
  expect(await listed("--provider", "github")).toEqual(["c-ann"]);
  expect(await listed("--org", "acme-slug")).toEqual(["c-dan"]);
  expect(await listed("--role", "admin")).toEqual(["c-ann"]);
  expect(await listed("--search", "BE")).toEqual(["c-ben"]);
  expect(await listed("--search", "@example", "--contains", "--sort", "name")).toEqual([
    ...["c-ann", "c-ben", "c-cat", "c-dan"],
  ]);
});

it("users list prints the next page's cursor, and --cursor reads that page", async () => {
  const first = await runCli(["users", "list", "--limit", "3"], { env });
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain("3 of 4 user(s)");
  const cursor = /next page: --cursor (\S+)/.exec(first.stdout)?.[1];
  expect(cursor).toBeTruthy();
  expect(await listed("--limit", "3", "--cursor", cursor ?? "")).toEqual(["c-ann"]);
});

it("users list refuses an unknown organization (exit 1) and an unknown sort (exit 2)", async () => {
  const org = await runCli(["users", "list", "--org", "nowhere"], { env });
  expect([org.code, org.stderr.trim()]).toEqual([1, "authd: Organization not found"]);
  const sort = await runCli(["users", "list", "--sort", "age"], { env });
  expect(sort.code).toBe(2);
  expect(sort.stderr).toContain("--sort");
});
