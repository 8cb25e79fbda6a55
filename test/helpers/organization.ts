import { expect } from "vitest";
import type { Agent } from "./agent.ts";
import { signUp, type TestContext } from "./context.ts";

// Organization fixtures built through the public API (and the server call for add-member).

let counter = 0;

export function uniqueSlug(prefix = "org"): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Signs up an owner and creates an organization for them; the organization is active in their session. */
export async function ownerWithOrganization(t: TestContext, name = "Acme") {
  const owner = await signUp(t);
  t.clock.advance(1); // distinct createdAt values keep listing order deterministic
  const res = await owner.agent.post("/organization/create", { name, slug: uniqueSlug() });
  expect(res.status, res.text).toBe(200);
  return { ...owner, organization: res.body as { id: string; name: string; slug: string; members: { id: string }[] } };
}

/** Signs up a user and adds them to the organization with the given role through the server call. */
export async function memberOf(t: TestContext, organizationId: string, role: string | string[] = "member") {
  const user = await signUp(t);
  t.clock.advance(1);
  const res = await t.server().post("/organization/add-member", { userId: user.user.id, role, organizationId });
  expect(res.status, res.text).toBe(200);
  await user.agent.post("/organization/set-active", { organizationId });
  return { ...user, member: res.body as { id: string; role: string } };
}

export async function activeOrganizationId(agent: Agent): Promise<string | null> {
  const res = await agent.get("/get-session", { query: { disableCookieCache: true } });
  return res.body?.session?.activeOrganizationId ?? null;
}
