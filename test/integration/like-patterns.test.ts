import { afterAll, beforeAll, expect, it } from "vitest";
import { listOrganizations } from "../../src/db/repositories/directory.ts";
import { listUsers } from "../../src/db/repositories/users.ts";
import { describeEachDialect, SERVER_TOKEN } from "../helpers/context.ts";
import { liveSignUp, uniqueEmail } from "../helpers/live-agent.ts";
import { peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// A user's text that reaches LIKE is matched literally: % and _ are not wildcards, on both dialects.

describeEachDialect("LIKE patterns from user input", (dialect) => {
  let authd: RunningAuthd;
  let base: string;
  beforeAll(async () => {
    authd = await startAuthd({ dialect });
    base = authd.url;
  });
  afterAll(() => authd.close());

  const server = (path: string) =>
    peerRequest(base, `/api/auth${path}`, { headers: { authorization: `Bearer ${SERVER_TOKEN}` } });

  it("list-members with filterOperator=contains treats % and _ as themselves, ignoring case on both dialects", async () => {
    const { agent } = await liveSignUp(base);
    const created = await agent.post("/organization/create", { name: "Like Co", slug: `like-${Date.now()}` });
    expect(created.status, created.text).toBe(200);
    const organizationId = (created.json as { id: string }).id;
    for (const role of ["admin", "member"]) {
      const { user } = await liveSignUp(base);
      const added = await peerRequest(base, "/api/auth/organization/add-member", {
        body: { userId: user.id, role, organizationId },
        headers: { authorization: `Bearer ${SERVER_TOKEN}` },
      });
      expect(added.status, added.text).toBe(200);
    }
    const contains = async (value: string) => {
      const res = await agent.get("/organization/list-members", {
        filterField: "role",
        filterOperator: "contains",
        filterValue: value,
      });
      expect(res.status, res.text).toBe(200);
      return (res.json as { members: { role: string }[]; total: number }).members.map((m) => m.role).sort();
    };
    expect(await contains("%")).toEqual([]);
    expect(await contains("_")).toEqual([]);
    expect(await contains("m_mber")).toEqual([]);
    expect(await contains("mem")).toEqual(["member"]);
    expect(await contains("MIN")).toEqual(["admin"]);
    // A number column (createdAt, epoch milliseconds) can be searched too, instead of failing on Postgres.
    const byDate = await agent.get("/organization/list-members", {
      filterField: "createdAt",
      filterOperator: "contains",
      filterValue: String(Date.now()).slice(0, 3),
    });
    expect(byDate.status, byDate.text).toBe(200);
    expect((byDate.json as { total: number }).total).toBe(3);
  });

  it("admin list-users search and contains filter match % and _ literally", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    await liveSignUp(base, { email: uniqueEmail(`pct_${tag}`), name: `100%_${tag}` });
    await liveSignUp(base, { email: uniqueEmail(`pctx${tag}`), name: `100ab${tag}` });
    const names = async (query: string) => {
      const res = await server(`/admin/list-users?${query}`);
      expect(res.status, res.text).toBe(200);
      return (res.json as { users: { name: string }[] }).users.map((u) => u.name).sort();
    };
    expect(await names(`searchField=name&searchValue=${encodeURIComponent(`100%_${tag}`)}`)).toEqual([`100%_${tag}`]);
    expect(await names(`searchField=name&searchValue=${encodeURIComponent(`%${tag}`)}`)).toEqual([]);
    expect(
      await names(`searchField=email&searchOperator=starts_with&searchValue=${encodeURIComponent(`pct_${tag}`)}`),
    ).toHaveLength(1);
    expect(await names(`filterField=name&filterOperator=contains&filterValue=${encodeURIComponent(`0_a`)}`)).toEqual(
      [],
    );
  });

  it("operator listings (CLI and TUI search) match % and _ literally", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const { agent } = await liveSignUp(base, { name: `under_${tag}` });
    await liveSignUp(base, { name: `underX${tag}` });
    expect((await listUsers(authd.t.ctx.db, { search: `under_${tag}` })).map((u) => u.name)).toEqual([`under_${tag}`]);
    expect(await listUsers(authd.t.ctx.db, { search: `%${tag}%x` })).toEqual([]);
    await agent.post("/organization/create", { name: `50%_${tag}`, slug: `pct-${tag}` });
    await agent.post("/organization/create", { name: `50ab${tag}`, slug: `pcx-${tag}` });
    expect((await listOrganizations(authd.t.ctx.db, { search: `50%_${tag}` })).map((o) => o.name)).toEqual([
      `50%_${tag}`,
    ]);
  });
});
