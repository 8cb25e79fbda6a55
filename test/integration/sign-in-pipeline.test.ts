import { afterEach, beforeEach, expect, it } from "vitest";
import { banUser } from "../../src/services/admin.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { emailPasswordStrategy } from "../../src/services/sign-in/password.ts";
import { signIn } from "../../src/services/sign-in/pipeline.ts";
import type { SignInRequest } from "../../src/services/sign-in/strategy.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// Issue 27: sign-in is one pipeline in the services, reached with a plain value for the request, so a
// front end without a Hono request (the console, the OpenID Provider's authorize step) signs in the same
// way as the routes: the same gate, the same session, the same events.

describeEachDialect("the sign-in pipeline without HTTP", (dialect) => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestContext({ dialect });
  });
  afterEach(() => t.close());

  /** A request as a console would describe it: no cookies, no headers, just facts. */
  const consoleRequest = (noted: string[]): SignInRequest => ({
    ip: "203.0.113.7",
    userAgent: "authd-console",
    rememberMe: undefined,
    trustedBrowser: null,
    noteUser: (userId) => noted.push(userId),
  });

  it("starts a session from a plain request value and records the sign-in from its address", async () => {
    const { email, password, user } = await signUp(t);
    const noted: string[] = [];
    const result = await signIn(t.ctx, emailPasswordStrategy, { email, password }, consoleRequest(noted));
    if (result.kind !== "session") throw new Error(`expected a session, got ${result.kind}`);
    expect(result.user.id).toBe(user.id);
    expect(result.session).toMatchObject({ userId: user.id, ipAddress: "203.0.113.7", userAgent: "authd-console" });
    const [event] = (await eventsOfType(t.ctx, "sign_in")).filter((row) => row.outcome === "success");
    expect(event).toMatchObject({ actorType: "user", actorId: user.id, ip: "203.0.113.7", userAgent: "authd-console" });
    expect(noted).toContain(user.id);
  });

  it("answers a wrong password as the method's refusal, logged with the named user and an anonymous actor", async () => {
    const { email, user } = await signUp(t);
    const result = await signIn(
      t.ctx,
      emailPasswordStrategy,
      { email, password: "wrong-password-1" },
      consoleRequest([]),
    );
    expect(result).toEqual({ kind: "refused", refusal: "INVALID_EMAIL_OR_PASSWORD" });
    const [event] = (await eventsOfType(t.ctx, "sign_in")).filter((row) => row.outcome === "failure");
    expect(event).toMatchObject({ actorType: "anonymous", actorId: null, subjectId: user.id, ip: "203.0.113.7" });
    expect(JSON.parse(event.data)).toMatchObject({ method: "email", reason: "invalid_credentials" });
  });

  it("refuses a banned user at the gate, after the password, and logs the refusal", async () => {
    const { email, password, user } = await signUp(t);
    await banUser(t.ctx, user.id, {}, CLI_SOURCE);
    await expect(signIn(t.ctx, emailPasswordStrategy, { email, password }, consoleRequest([]))).rejects.toMatchObject({
      key: "BANNED_USER",
    });
    const [event] = (await eventsOfType(t.ctx, "sign_in")).filter((row) => row.outcome === "failure");
    expect(JSON.parse(event.data)).toMatchObject({ method: "email", reason: "banned" });
    expect(event.subjectId).toBe(user.id);
  });
});
