import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthClient } from "../../src/client/index.ts";
import { browserLikeFetch, type RunningAuthd, startAuthd, uniqueEmail } from "./helpers.ts";

// Organization calls through the client (camelCase names → /organization/... paths) against a real authd.

describe("authd/client organization calls", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd();
  });
  afterAll(async () => {
    await authd?.close();
  });

  async function signedInClient(name: string, email = uniqueEmail(name.toLowerCase())) {
    const browser = browserLikeFetch();
    const client = createAuthClient({ baseURL: authd.url, fetchOptions: { customFetchImpl: browser.fetch } });
    const { error } = await client.signUp.email({ name, email, password: "correct-horse-battery" });
    expect(error).toBeNull();
    return { client, browser, email };
  }

  it("creates an organization, lists it and reads the full organization", async () => {
    const { client, browser } = await signedInClient("Founder");
    const slug = `acme-${Math.random().toString(36).slice(2, 8)}`;
    const created = await client.organization.create({ name: "Acme", slug });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ name: "Acme", slug });
    expect(created.data?.createdAt).toBeInstanceOf(Date);
    expect(created.data?.members.map((member) => member.role)).toEqual(["owner"]);
    expect(browser.requests.at(-1)).toEqual({ method: "POST", url: `${authd.url}/api/auth/organization/create` });

    const taken = await client.organization.checkSlug({ slug });
    expect(taken.error).toMatchObject({ status: 400, message: "slug is taken" });

    const listed = await client.organization.list();
    expect(listed.data?.map((organization) => organization.slug)).toEqual([slug]);

    const full = await client.organization.getFullOrganization({ query: { organizationId: created.data!.id } });
    expect(full.data?.id).toBe(created.data?.id);
    expect(browser.requests.at(-1)?.method).toBe("GET");
  });

  it("invites by email and the invitee accepts with their own client", async () => {
    const { client: owner } = await signedInClient("Owner");
    const { data: organization } = await owner.organization.create({
      name: "Team",
      slug: `team-${Math.random().toString(36).slice(2, 8)}`,
    });
    const inviteeEmail = uniqueEmail("invitee");
    const invited = await owner.organization.inviteMember({
      email: inviteeEmail,
      role: "member",
      organizationId: organization!.id,
    });
    expect(invited.error).toBeNull();
    expect(invited.data).toMatchObject({ email: inviteeEmail, status: "pending" });

    const { client: invitee } = await signedInClient("Invitee", inviteeEmail);
    // Invitations need a verified address (organization.requireEmailVerificationOnInvitation, on by default).
    await authd.t.ctx.db.updateTable("user").set({ emailVerified: true }).where("email", "=", inviteeEmail).execute();
    const details = await invitee.organization.getInvitation({ query: { id: invited.data!.id } });
    expect(details.data).toMatchObject({ organizationName: "Team", status: "pending" });
    const accepted = await invitee.organization.acceptInvitation({ invitationId: invited.data!.id });
    expect(accepted.error).toBeNull();
    expect(accepted.data?.invitation.status).toBe("accepted");
    expect(accepted.data?.member).toMatchObject({ organizationId: organization!.id, role: "member" });

    const member = await invitee.organization.getActiveMember();
    expect(member.data).toMatchObject({ organizationId: organization!.id, role: "member" });
  });

  it("refuses a stranger with the server's code", async () => {
    const { client: owner } = await signedInClient("Keeper");
    const { data: organization } = await owner.organization.create({
      name: "Private",
      slug: `private-${Math.random().toString(36).slice(2, 8)}`,
    });
    const { client: stranger } = await signedInClient("Stranger");
    const result = await stranger.organization.delete({ organizationId: organization!.id });
    expect(result.data).toBeNull();
    expect(result.error?.status).toBeGreaterThanOrEqual(400);
    expect(typeof result.error?.code).toBe("string");
  });
});
