import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findSession } from "../../src/services/sessions/sessions.ts";
import { signUpWithPassword } from "../../src/services/sign-up.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";

// Sign-up as a service (issue 27): the API route and the pages to come (issue 28) call signUpWithPassword
// with a plain input and where the request came from; no request object is involved. What the route answers
// is covered by core-auth.test.ts and the others; this is the service's own contract.

const ORIGIN = { ip: "198.51.100.4", userAgent: "SignUpServiceTest/1.0" };

function input(fields: Record<string, unknown> = {}) {
  const email = `form.${Math.random().toString(36).slice(2, 10)}@example.com`;
  return { email, password: "correct-horse-battery", name: "Form User", fields, ...fields };
}

describeEachDialect("signUpWithPassword", (dialect) => {
  describe("with auto sign-in", () => {
    let t: TestContext;
    beforeEach(async () => {
      t = await createTestContext({ dialect });
    });
    afterEach(() => t.close());

    it("creates the user in the address's stored form and starts a session with the request's facts", async () => {
      const noted: string[] = [];
      const form = input();
      const request = { ...ORIGIN, rememberMe: undefined, noteUser: (id: string) => noted.push(id) };
      const { user, session } = await signUpWithPassword(
        t.ctx,
        { ...form, email: ` ${form.email.toUpperCase()}` },
        request,
      );
      expect(user.email).toBe(form.email);
      expect(session).not.toBeNull();
      const found = await findSession(t.ctx, session?.token as string);
      expect(found?.user.id).toBe(user.id);
      expect([found?.session.ipAddress, found?.session.userAgent]).toEqual([ORIGIN.ip, ORIGIN.userAgent]);

      const [event] = await eventsOfType(t.ctx, "sign_up");
      expect(event).toMatchObject({ outcome: "success", actorType: "user", actorId: user.id, subjectId: user.id });
      expect([event.ip, event.userAgent]).toEqual([ORIGIN.ip, ORIGIN.userAgent]);
      expect(noted).toEqual([user.id]);
    });

    it("refuses a taken address with the API's error, and creates nothing", async () => {
      const form = input();
      await signUpWithPassword(t.ctx, form, { ...ORIGIN, rememberMe: false });
      await expect(signUpWithPassword(t.ctx, form, { ...ORIGIN, rememberMe: false })).rejects.toMatchObject({
        key: "USER_ALREADY_EXISTS",
      });
      expect(await eventsOfType(t.ctx, "sign_up")).toHaveLength(1);
    });
  });

  describe("while the address must be verified first", () => {
    let t: TestContext;
    beforeEach(async () => {
      t = await createTestContext({ dialect, config: { emailAndPassword: { requireEmailVerification: true } } });
    });
    afterEach(() => t.close());

    it("answers the user without a session", async () => {
      const { user, session } = await signUpWithPassword(t.ctx, input(), { ...ORIGIN, rememberMe: undefined });
      expect(session).toBeNull();
      expect(user.emailVerified).toBeFalsy();
    });
  });
});
