import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthContext, createContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/logger.ts";
import { localSessions } from "../../src/services/sessions/local-cache.ts";
import { Agent } from "../helpers/agent.ts";
import { followingChanges, heardOfChanges } from "../helpers/changes.ts";
import {
  createTestContext,
  DIALECTS,
  type Dialect,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf } from "../helpers/mail-links.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { memberOf, ownerWithOrganization } from "../helpers/organization.ts";
import { postgresUnavailableReason } from "../helpers/postgres.ts";
import { redisEnv, redisSkipped } from "../helpers/redis.ts";

// Every write that changes what a cached session shows, made on one daemon, shows at once on another
// daemon that had the session cached: in its memory (sessions/local-cache.ts, told by SQLite's data_version
// or Postgres LISTEN/NOTIFY) and, with Redis, in Redis too. One case per kind of write: a write that forgets
// to invalidate leaves the second daemon answering the old session.

const postgresSkipped = (await postgresUnavailableReason()) !== null;

interface Daemon {
  ctx: AuthContext;
  app: Hono;
}

/** A second daemon (context + app) on the same database and Redis as the test context, on its clock. */
async function secondDaemon(t: TestContext): Promise<Daemon> {
  const ctx = await createContext(t.ctx.config, { logger: silentLogger, now: () => t.clock.now });
  return { ctx, app: createApp(ctx) };
}

/** The same browser (cookie jar) talking to the other daemon. */
function sameBrowserOn(daemon: Daemon, from: Agent): Agent {
  const agent = new Agent(daemon.app, daemon.ctx.config.basePath, TEST_ORIGIN);
  for (const [name, value] of from.jar) agent.jar.set(name, value);
  return agent;
}

/** The daemons of the suite running now (the describes of this file run one after another). */
let daemons: AuthContext[] = [];

/** The session as a daemon answers it from memory, Redis or the database (never from the cookie cache). */
const live = async (agent: Agent, query: Record<string, unknown> = {}) => {
  for (const ctx of daemons) await heardOfChanges(ctx);
  return (await agent.get("/get-session", { query: { disableCookieCache: true, ...query } })).body;
};

for (const dialect of DIALECTS as Dialect[])
  for (const storage of ["memory", "redis"] as const)
    describe.skipIf((storage === "redis" && redisSkipped) || (dialect === "postgres" && postgresSkipped))(
      `session cache invalidation across daemons [${dialect}, ${storage}]`,
      () => {
        let t: TestContext;
        let other: Daemon;
        let mailbox: Mailbox;

        beforeAll(async () => {
          mailbox = await startMailbox();
          t = await createTestContext({
            dialect,
            env: {
              ...(storage === "redis" ? redisEnv() : {}),
              AUTH_SMTP_URL: mailbox.url,
              AUTH_TEAMS: "on",
              AUTH_DELETE_USER_VERIFICATION: "off",
            },
            config: { emailAndPassword: { revokeSessionsOnPasswordReset: true } },
          });
          other = await secondDaemon(t);
          await followingChanges(other.ctx);
          daemons = [t.ctx, other.ctx];
        });
        afterAll(async () => {
          await other.ctx.close();
          await t.close();
          await mailbox.close();
        });

        /** A user signed in on the test daemon whose session the other daemon has just cached. */
        async function cachedElsewhere(fields: Record<string, unknown> = {}) {
          const account = await signUp(t, fields);
          const elsewhere = sameBrowserOn(other, account.agent);
          expect((await live(elsewhere))?.user.id).toBe(account.user.id);
          // The other daemon now holds a copy in its memory: what the write below must reach.
          expect(localSessions(other.ctx).size).toBeGreaterThan(0);
          return { ...account, elsewhere };
        }

        /** Follow the verification link mailed to the address (the owner proves the mailbox). */
        async function verifyAddress(agent: Agent, email: string) {
          await t.ctx.settle();
          const seen = mailCount(mailbox, email);
          expect((await agent.post("/send-verification-email", { email })).status).toBe(200);
          const link = await mailedLink(mailbox, email, "verify", seen);
          expect((await t.agent().get(pathOf(link))).status).toBe(302);
        }

        it("user: a role set by an administrator", async () => {
          const { user, elsewhere } = await cachedElsewhere();
          expect((await t.server().post("/admin/set-role", { userId: user.id, role: "editor" })).status).toBe(200);
          expect((await live(elsewhere)).user.role).toBe("editor");
        });

        it("user: a ban ends the cached session", async () => {
          const { user, elsewhere } = await cachedElsewhere();
          expect((await t.server().post("/admin/ban-user", { userId: user.id })).status).toBe(200);
          expect(await live(elsewhere)).toBeNull();
        });

        it("user: an update of the username and the extra fields", async () => {
          const { agent, elsewhere } = await cachedElsewhere();
          expect(
            (await agent.post("/update-user", { username: "renamed_user", image: "https://example.com/a.png" })).status,
          ).toBe(200);
          expect((await live(elsewhere)).user).toMatchObject({
            username: "renamed_user",
            image: "https://example.com/a.png",
          });
        });

        it("user: an address verified through the mailed link", async () => {
          const { agent, email, elsewhere } = await cachedElsewhere();
          expect((await live(elsewhere)).user.emailVerified).toBe(false);
          await verifyAddress(agent, email);
          expect((await live(elsewhere)).user.emailVerified).toBe(true);
        });

        it("user: an unverified address changed at once", async () => {
          const { agent, elsewhere } = await cachedElsewhere();
          const newEmail = `changed.${Math.random().toString(36).slice(2, 8)}@example.com`;
          expect((await agent.post("/change-email", { newEmail })).status).toBe(200);
          expect((await live(elsewhere)).user.email).toBe(newEmail);
        });

        it("user: a verified address changed once the owner confirms", async () => {
          const { agent, email, elsewhere } = await cachedElsewhere();
          await verifyAddress(agent, email);
          expect((await live(elsewhere)).user.emailVerified).toBe(true);
          const newEmail = `confirmed.${Math.random().toString(36).slice(2, 8)}@example.com`;
          await t.ctx.settle();
          const seen = mailCount(mailbox, email);
          expect((await agent.post("/change-email", { newEmail })).status).toBe(200);
          const link = await mailedLink(mailbox, email, "verify", seen);
          expect((await agent.get(pathOf(link))).status).toBe(302);
          expect((await live(elsewhere)).user).toMatchObject({ email: newEmail, emailVerified: false });
        });

        it("user: deleted by its owner, or removed by an administrator", async () => {
          const deleted = await cachedElsewhere();
          expect((await deleted.agent.post("/delete-user", { password: deleted.password })).status).toBe(200);
          expect(await live(deleted.elsewhere)).toBeNull();
          const removed = await cachedElsewhere();
          expect((await t.server().post("/admin/remove-user", { userId: removed.user.id })).status).toBe(200);
          expect(await live(removed.elsewhere)).toBeNull();
        });

        it("user: a password reset signs out everywhere", async () => {
          const { email, elsewhere } = await cachedElsewhere();
          await t.ctx.settle();
          const seen = mailCount(mailbox, email);
          await t.agent().post("/request-password-reset", { email, redirectTo: "/reset" });
          const token = (await mailedLink(mailbox, email, "reset", seen)).pathname.split("/").pop();
          expect((await t.agent().post("/reset-password", { token, newPassword: "brand-new-password" })).status).toBe(
            200,
          );
          expect(await live(elsewhere)).toBeNull();
        });

        it("user: a banned owner's API key is refused on every daemon", async () => {
          const { user } = await cachedElsewhere();
          const { key } = (await t.server().post("/api-key/create", { userId: user.id })).body;
          const keyHolder = new Agent(other.app, other.ctx.config.basePath, TEST_ORIGIN);
          const withKey = () => keyHolder.get("/get-session", { headers: { "x-api-key": key } });
          expect((await withKey()).body.user.id).toBe(user.id);
          expect((await t.server().post("/admin/ban-user", { userId: user.id })).status).toBe(200);
          // The other daemon keeps the key's row in memory too (api-keys/rows.ts): the ban reaches it with the
          // change notification, as for sessions.
          for (const ctx of daemons) await heardOfChanges(ctx);
          expect((await withKey()).status).toBe(401);
        });

        it("session: revoked by its owner, all at once, all but the current one, by sign-out", async () => {
          const all = await cachedElsewhere();
          expect((await all.agent.post("/revoke-sessions", {})).status).toBe(200);
          expect(await live(all.elsewhere)).toBeNull();

          const others = await cachedElsewhere();
          const current = t.agent();
          expect(
            (await current.post("/sign-in/email", { email: others.email, password: others.password })).status,
          ).toBe(200);
          expect((await current.post("/revoke-other-sessions", {})).status).toBe(200);
          expect(await live(others.elsewhere)).toBeNull();
          expect((await live(current))?.user.id).toBe(others.user.id);

          const signedOut = await cachedElsewhere();
          expect((await signedOut.agent.post("/sign-out", {})).status).toBe(200);
          expect(await live(signedOut.elsewhere)).toBeNull();
        });

        it("session: revoked by an administrator, one or all of a user's", async () => {
          const one = await cachedElsewhere();
          const [listed] = (await t.server().post("/admin/list-user-sessions", { userId: one.user.id })).body.sessions;
          expect((await t.server().post("/admin/revoke-user-session", { sessionToken: listed.token })).status).toBe(
            200,
          );
          expect(await live(one.elsewhere)).toBeNull();
          const all = await cachedElsewhere();
          expect((await t.server().post("/admin/revoke-user-sessions", { userId: all.user.id })).status).toBe(200);
          expect(await live(all.elsewhere)).toBeNull();
        });

        it("session: a refresh moves its expiry", async () => {
          const { agent, elsewhere } = await cachedElsewhere();
          const before = (await live(elsewhere)).session.expiresAt;
          t.clock.advance(86_400_000 + 1000);
          try {
            const refreshed = (await live(agent)).session.expiresAt;
            expect(refreshed).not.toBe(before);
            // The other daemon does not refresh it itself here: it shows what the first one wrote.
            expect((await live(elsewhere, { disableRefresh: true })).session.expiresAt).toBe(refreshed);
          } finally {
            t.clock.advance(-(86_400_000 + 1000));
          }
        });

        it("session: an impersonation ended by the administrator", async () => {
          const admin = await signUp(t);
          expect((await t.server().post("/admin/set-role", { userId: admin.user.id, role: "admin" })).status).toBe(200);
          const target = await signUp(t);
          expect((await admin.agent.post("/admin/impersonate-user", { userId: target.user.id })).status).toBe(200);
          const elsewhere = sameBrowserOn(other, admin.agent);
          expect((await live(elsewhere)).session.impersonatedBy).toBe(admin.user.id);
          expect((await admin.agent.post("/admin/stop-impersonating", {})).status).toBe(200);
          expect(await live(elsewhere)).toBeNull();
        });

        it("session: the active organization set, and cleared when the member leaves or is removed", async () => {
          const owner = await ownerWithOrganization(t);
          const member = await memberOf(t, owner.organization.id);
          const elsewhere = sameBrowserOn(other, member.agent);
          expect((await live(elsewhere)).session.activeOrganizationId).toBe(owner.organization.id);
          expect(
            (await member.agent.post("/organization/leave", { organizationId: owner.organization.id })).status,
          ).toBe(200);
          expect((await live(elsewhere)).session.activeOrganizationId).toBeNull();

          const removed = await memberOf(t, owner.organization.id);
          const removedElsewhere = sameBrowserOn(other, removed.agent);
          expect((await live(removedElsewhere)).session.activeOrganizationId).toBe(owner.organization.id);
          const body = { memberIdOrEmail: removed.member.id, organizationId: owner.organization.id };
          expect((await owner.agent.post("/organization/remove-member", body)).status).toBe(200);
          expect((await live(removedElsewhere)).session.activeOrganizationId).toBeNull();
        });

        it("session: the active organization cleared everywhere when the organization is deleted", async () => {
          const owner = await ownerWithOrganization(t);
          const member = await memberOf(t, owner.organization.id);
          const elsewhere = sameBrowserOn(other, member.agent);
          expect((await live(elsewhere)).session.activeOrganizationId).toBe(owner.organization.id);
          expect(
            (await owner.agent.post("/organization/delete", { organizationId: owner.organization.id })).status,
          ).toBe(200);
          expect((await live(elsewhere)).session.activeOrganizationId).toBeNull();
        });

        it("session: the active organization set by accepting an invitation", async () => {
          const owner = await ownerWithOrganization(t);
          const { agent, email, elsewhere } = await cachedElsewhere();
          await verifyAddress(agent, email);
          const invited = await owner.agent.post("/organization/invite-member", { email, role: "member" });
          expect(invited.status).toBe(200);
          expect((await agent.post("/organization/accept-invitation", { invitationId: invited.body.id })).status).toBe(
            200,
          );
          expect((await live(elsewhere)).session.activeOrganizationId).toBe(owner.organization.id);
        });

        it("session: the active team cleared when the team is removed", async () => {
          const owner = await ownerWithOrganization(t);
          const team = await owner.agent.post("/organization/create-team", { name: "Second" });
          expect(team.status).toBe(200);
          const member = await memberOf(t, owner.organization.id);
          expect(
            (await owner.agent.post("/organization/add-team-member", { teamId: team.body.id, userId: member.user.id }))
              .status,
          ).toBe(200);
          expect((await member.agent.post("/organization/set-active-team", { teamId: team.body.id })).status).toBe(200);
          const elsewhere = sameBrowserOn(other, member.agent);
          expect((await live(elsewhere)).session.activeTeamId).toBe(team.body.id);
          expect((await owner.agent.post("/organization/remove-team", { teamId: team.body.id })).status).toBe(200);
          expect((await live(elsewhere)).session.activeTeamId).toBeNull();
        });
      },
    );
