import { expect, it } from "vitest";
import type { Agent } from "../../helpers/agent.ts";
import { eventsOfType } from "../../helpers/audit.ts";
import { describeEachDialect, type TestContext } from "../../helpers/context.ts";
import { mailCount, mailedLink, useMailContext } from "../../helpers/mail-links.ts";
import type { Mailbox } from "../../helpers/mailbox.ts";
import {
  authorizeParams,
  authorizePath,
  authorizeToCallback,
  codeFlow,
  type RegisteredClient,
  registerClient,
  tokenRequest,
} from "../../helpers/oidc-rp.ts";

// The pre-registration squatter meets authd's OpenID Provider (issue 26, item 1: "anything added later, OAuth
// grants when authd becomes a provider"). Before the owner proves the mailbox, the squatter signs in at a
// relying party through authd, consents to it, and holds its access and refresh tokens and an authorization
// code not yet exchanged. The owner's first proof must end all of it: the tokens and the code are refused,
// and the consent is the squatter's, not the owner's, so the client must ask the owner again.

const PASSWORD = "squatter-password-1";
const offline = { scope: "openid email offline_access" };

describeEachDialect("OpenID Provider: the first proof of a mailbox ends the squatter's grants", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext(
    { dialect, env: { AUTH_OIDC_PROVIDER: "on", AUTH_MAGIC_LINK: "on" } },
    (ready) => ({ t, mailbox } = ready),
  );

  /** The owner follows a magic link mailed to `email`; answers the agent holding their new session. */
  async function ownerProves(email: string): Promise<Agent> {
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    await t.agent().post("/sign-in/magic-link", { email });
    const link = await mailedLink(mailbox, email, "magicLink", seen);
    const owner = t.agent();
    const verified = await owner.get("/magic-link/verify", { query: { token: link.searchParams.get("token") ?? "" } });
    expect(verified.status).toBe(200);
    return owner;
  }

  async function squatAt(rp: RegisteredClient, email: string) {
    const squatter = t.agent();
    const signedUp = await squatter.post("/sign-up/email", { name: "Squatter", email, password: PASSWORD });
    expect(signedUp.status).toBe(200);
    // Consented and exchanged: an access token and a refresh token.
    const { tokens } = await codeFlow(t, squatter, rp, offline);
    expect(tokens.refresh_token).toBeTruthy();
    // Issued but not yet exchanged: a code the squatter's client holds.
    const pending = authorizeParams(rp, offline);
    const callback = await authorizeToCallback(squatter, pending.params);
    const code = callback.searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    return { userId: signedUp.body.user.id as string, tokens, pending, code };
  }

  it("the squatter's tokens, pending code and consent end; the client asks the owner", async () => {
    // Given a squatter who consented to a client and holds its tokens and a fresh code
    const rp = await registerClient(t);
    const email = "squatted.at.rp@example.com";
    const held = await squatAt(rp, email);

    // When the owner proves the mailbox
    const owner = await ownerProves(email);

    // Then the client's refresh token, access token and unexchanged code are refused
    const refreshed = await tokenRequest(t, rp, {
      grant_type: "refresh_token",
      refresh_token: held.tokens.refresh_token,
    });
    expect(refreshed.body.error).toBe("invalid_grant");
    const bearer = { headers: { authorization: `Bearer ${held.tokens.access_token}` } };
    expect((await t.agent().get("/oauth2/userinfo", bearer)).status).toBe(401);
    const exchanged = await tokenRequest(t, rp, {
      grant_type: "authorization_code",
      code: held.code,
      redirect_uri: held.pending.params.redirect_uri,
      code_verifier: held.pending.verifier,
    });
    expect(exchanged.body.error).toBe("invalid_grant");

    // And the owner never consented to this client: asked silently, authd says so rather than answer a code
    const silent = await owner.get(authorizePath(authorizeParams(rp, { ...offline, prompt: "none" }).params));
    const answer = new URL(silent.headers.get("location") ?? "");
    expect(answer.searchParams.get("code")).toBeNull();
    expect(answer.searchParams.get("error")).toBe("consent_required");

    // One event counts the consent with the rest
    const claims = (await eventsOfType(t.ctx, "account_claimed")).filter((row) => row.subjectId === held.userId);
    expect(claims).toHaveLength(1);
    expect(JSON.parse(claims[0].data ?? "{}").removed).toMatchObject({ oauthConsents: 1 });
  });

  it("a verified user's consent survives a later magic link", async () => {
    // Given the owner, proven, who consents to a client
    const rp = await registerClient(t);
    const email = "owner.consented@example.com";
    expect((await t.agent().post("/sign-up/email", { name: "Owner", email, password: PASSWORD })).status).toBe(200);
    await codeFlow(t, await ownerProves(email), rp, offline);

    // When they prove the mailbox again
    const again = await ownerProves(email);

    // Then their consent still stands: a silent request gets a code
    const silent = await again.get(authorizePath(authorizeParams(rp, { ...offline, prompt: "none" }).params));
    expect(new URL(silent.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
  });
});
