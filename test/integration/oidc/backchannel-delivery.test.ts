import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../../src/logger.ts";
import { createTestContext, signUp, type TestContext } from "../../helpers/context.ts";
import { type LogoutReceiver, startLogoutReceiver } from "../../helpers/logout-receiver.ts";
import { codeFlow, registerClient } from "../../helpers/oidc-rp.ts";

// How logout tokens travel: off the request path (a sign-out never waits for a client), a client that
// fails with a 5xx tried again a few times and then given up and logged, a refusal (4xx) and a redirect
// neither repeated nor followed. Delivery does not depend on the database, so SQLite alone runs these.

interface LogLine {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, fields });
  return { lines, debug: at("debug"), info: at("info"), success: at("success"), warn: at("warn"), error: at("error") };
}

describe("OpenID Provider: back-channel logout delivery", () => {
  let t: TestContext;
  let receiver: LogoutReceiver;
  const logger = recordingLogger();
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_OIDC_PROVIDER: "on" }, logger });
    receiver = await startLogoutReceiver();
  });
  afterAll(async () => {
    receiver.release();
    await t.close();
    await receiver.close();
  });

  /** A user signed in to a client told at `path`, holding a family of its tokens. */
  async function signedInTo(path: string) {
    const rp = await registerClient(t, { skipConsent: true, backchannelLogoutURI: receiver.url(path) });
    const { agent } = await signUp(t);
    await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    return { agent, rp };
  }

  const failuresFor = (clientId: string) =>
    logger.lines.filter((line) => line.level === "warn" && line.fields?.clientId === clientId);

  it("answers the sign-out while the client has not answered yet", async () => {
    const { agent } = await signedInTo("/slow");
    receiver.answer = (path) => (path === "/slow" ? "hold" : 200);
    expect((await agent.post("/sign-out", {})).status).toBe(200);
    await expect.poll(() => receiver.held()).toBe(1);
    expect((await agent.get("/get-session")).body).toBeNull();
    receiver.release();
    await t.ctx.settle();
    expect(receiver.tokensAt("/slow")).toHaveLength(1);
  });

  it("tries a failing client three times, then gives up and logs it", async () => {
    const { agent, rp } = await signedInTo("/failing");
    receiver.answer = (path) => (path === "/failing" ? 503 : 200);
    expect((await agent.post("/sign-out", {})).status).toBe(200);
    await t.ctx.settle();
    const attempts = receiver.tokensAt("/failing");
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts).size).toBe(1); // the same token each time
    expect(failuresFor(rp.client.id)).toEqual([
      {
        level: "warn",
        message: "oidc.backchannel_logout_failed",
        fields: { clientId: rp.client.id, attempts: 3, reason: "status 503" },
      },
    ]);
  });

  it("does not repeat a token the client refused (400), nor follow a redirect elsewhere", async () => {
    const refusing = await signedInTo("/refusing");
    const redirecting = await signedInTo("/redirecting");
    receiver.answer = (path) => (path === "/refusing" ? 400 : path === "/redirecting" ? 302 : 200);
    expect((await refusing.agent.post("/sign-out", {})).status).toBe(200);
    expect((await redirecting.agent.post("/sign-out", {})).status).toBe(200);
    await t.ctx.settle();
    expect(receiver.tokensAt("/refusing")).toHaveLength(1);
    expect(failuresFor(refusing.rp.client.id).map((line) => line.message)).toEqual(["oidc.backchannel_logout_refused"]);
    expect(receiver.tokensAt("/redirecting")).toHaveLength(1);
    expect(failuresFor(redirecting.rp.client.id).map((line) => line.fields?.reason)).toEqual(["status 302"]);
  });
});
