import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../../src/crypto/random.ts";
import { findClient } from "../../src/services/oidc-provider/clients.ts";
import { createAdminData } from "../../ui/data.ts";
import { AdminApp } from "../../ui/terminal/screens/AdminApp.tsx";
import { eventsOfType, expectNoSecretsInAudit } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { codeFlow, RP_CALLBACK, tokenRequest } from "../helpers/oidc-rp.ts";
import { KEYS, waitForFrame } from "./keys.ts";

// The terminal UI's OpenID clients screen (issue 30: clients are managed by the terminal UI too): shown only
// while the OpenID Provider is on; a secret shown once in a box the operator dismisses, and the secret shown
// is the one the token endpoint accepts; a new secret replaces the old at once; deleting asks first.

type Ui = ReturnType<typeof render>;

const SHIFT_TAB = "\u001B[Z";

/** The secret in the box on screen. */
const secretOn = (frame: string): string => {
  const secret = /client_secret: (\S+)/.exec(frame)?.[1];
  if (!secret) throw new Error(`no secret on screen:\n${frame}`);
  return secret;
};

describeEachDialect("authd admin: OpenID clients screen", (dialect) => {
  let t: TestContext;
  let app: Ui | undefined;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_OIDC_PROVIDER: "on" } });
  });
  afterEach(() => {
    app?.unmount();
    app = undefined;
  });
  afterAll(() => t.close());

  const storedDigest = async (clientId: string) =>
    (await t.ctx.db.selectFrom("oauthClient").select("secretHash").where("id", "=", clientId).executeTakeFirst())
      ?.secretHash;
  /** The code flow with this secret, to the token endpoint's answer. */
  const signsInWith = async (clientId: string, secret: string) => {
    const client = await findClient(t.ctx, clientId);
    if (!client) throw new Error("the client is registered");
    const { agent } = await signUp(t);
    return codeFlow(t, agent, { client, secret });
  };

  /** The app, tabbed to the clients screen (the sixth). */
  const openClients = async () => {
    app = render(<AdminApp data={createAdminData(t.ctx)} />);
    const ui = app;
    await waitForFrame(ui, "user(s)");
    for (let i = 0; i < 5; i += 1) ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, (f) => f.includes("client(s)") && !f.includes("loading"));
    return ui;
  };
  const answer = async (ui: Ui, label: string, text: string) => {
    await waitForFrame(ui, label);
    ui.stdin.write(text);
    ui.stdin.write(KEYS.enter);
  };
  const register = async (ui: Ui, name: string, uris: string, type = "") => {
    ui.stdin.write("n");
    await answer(ui, "client name:", name);
    await answer(ui, "redirect URIs:", uris);
    await answer(ui, "type:", type);
    await answer(ui, "ID token algorithm:", "");
  };
  /** Move the cursor down to the client's row, one row at a time (each move waits for the last), and open it. */
  const openClient = async (ui: Ui, name: string) => {
    const cursorRow = (frame: string) => frame.split("\n").find((line) => line.startsWith("› ")) ?? "";
    const listed = (f: string) => f.split("\n").some((line) => /^(› | {2})\S/.test(line) && line.includes(name));
    let frame = await waitForFrame(ui, (f) => listed(f) && !f.includes("loading") && cursorRow(f) !== "");
    for (let moves = 0; !cursorRow(frame).includes(name); moves += 1) {
      if (moves > 10) throw new Error(`${name} is not in the list:\n${frame}`);
      const from = cursorRow(frame);
      ui.stdin.write(KEYS.down);
      frame = await waitForFrame(ui, (f) => cursorRow(f) !== from);
    }
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "ID token algorithm");
  };

  it("registers a confidential client and shows its secret once, in a box only enter or esc dismisses", async () => {
    const ui = await openClients();
    expect(ui.lastFrame()?.split("\n")[0]).toMatch(/ api keys +clients +webhooks$/);
    expect(ui.lastFrame()).toContain("no clients registered (n registers one)");
    await register(ui, "Grafana", `${RP_CALLBACK} https://grafana.example.com/login/generic_oauth`);
    const boxed = await waitForFrame(ui, "I have copied it");
    const secret = secretOn(boxed);
    expect(boxed).toContain("registered Grafana: the client secret is shown once");
    const [event] = await eventsOfType(t.ctx, "oidc_client_created");
    expect(event).toMatchObject({ actorType: "cli", outcome: "success" });
    const clientId = JSON.parse(event.data).clientId as string;
    expect(boxed).toContain(`client_id:     ${clientId}`);
    expect(await storedDigest(clientId)).toBe(sha256Base64Url(secret));

    // Keys other than enter and esc leave the box (and the secret) where it is.
    ui.stdin.write("n");
    ui.stdin.write(KEYS.down);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ui.lastFrame()).toContain(secret);
    expect(ui.lastFrame()).not.toContain("client name:");
    ui.stdin.write(KEYS.enter);
    const row = /Grafana .*confidential .*https:\/\/rp\.example\.com\/callback .*RS256/;
    const listed = await waitForFrame(ui, (f) => !f.includes("I have copied it") && row.test(f));
    expect(listed).not.toContain(secret);
    expect(listed).toContain("registered Grafana");
    await expectNoSecretsInAudit(t.ctx, [secret]);

    // The secret shown is the one the token endpoint takes.
    const { tokens } = await signsInWith(clientId, secret);
    expect(tokens.id_token).toEqual(expect.any(String));
  });

  it("opens a client, gives it a new secret after asking, and the old one stops working", async () => {
    const ui = await openClients();
    await register(ui, "Wiki", RP_CALLBACK);
    const first = secretOn(await waitForFrame(ui, "I have copied it"));
    ui.stdin.write(KEYS.escape);
    await waitForFrame(ui, (f) => !f.includes("I have copied it"));
    await openClient(ui, "Wiki");
    const detail = ui.lastFrame() ?? "";
    expect(detail).toContain("confidential (client_secret_basic or _post)");
    expect(detail).toContain(RP_CALLBACK);
    expect(detail).toContain("s new secret");
    const clientId = /Wiki {2}(\S+)/.exec(detail)?.[1] ?? "";

    ui.stdin.write("s");
    await waitForFrame(ui, "Give Wiki a new secret? The old one stops working at once. [y/N]");
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("[y/N]"));
    expect(await storedDigest(clientId)).toBe(sha256Base64Url(first));

    ui.stdin.write("s");
    await waitForFrame(ui, "Give Wiki a new secret?");
    ui.stdin.write("y");
    const boxed = await waitForFrame(ui, "new secret for Wiki: the client secret is shown once");
    const second = secretOn(boxed);
    expect(second).not.toBe(first);
    expect(await storedDigest(clientId)).toBe(sha256Base64Url(second));
    ui.stdin.write(KEYS.enter);
    const after = await waitForFrame(ui, (f) => f.includes("Wiki has a new secret") && !f.includes("I have copied it"));
    expect(after).not.toContain(second);

    // At the token endpoint the old secret is refused as the client's; the new one passes as it (the made-up
    // code is what it refuses then).
    const client = (await findClient(t.ctx, clientId))!;
    const exchange = { grant_type: "authorization_code", code: "made-up", redirect_uri: RP_CALLBACK };
    const old = await tokenRequest(t, { client, secret: first }, exchange);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe("invalid_client");
    const current = await tokenRequest(t, { client, secret: second }, exchange);
    expect(current.body.error).toBe("invalid_grant");
  });

  it("deletes a client only after confirmation, and its secret is refused then", async () => {
    const ui = await openClients();
    await register(ui, "Doomed", RP_CALLBACK);
    const secret = secretOn(await waitForFrame(ui, "I have copied it"));
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, (f) => !f.includes("I have copied it"));
    await openClient(ui, "Doomed");
    const clientId = /Doomed {2}(\S+)/.exec(ui.lastFrame() ?? "")?.[1] ?? "";
    const client = (await findClient(t.ctx, clientId))!;
    ui.stdin.write("d");
    await waitForFrame(ui, "Delete Doomed with its grants and tokens?");
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("[y/N]"));
    expect(await findClient(t.ctx, clientId)).not.toBeNull();
    ui.stdin.write("d");
    await waitForFrame(ui, "Delete Doomed");
    ui.stdin.write("y");
    const back = await waitForFrame(ui, (f) => f.includes("deleted client Doomed") && f.includes("client(s)"));
    expect(back).not.toMatch(/Doomed .*confidential/);
    expect(await findClient(t.ctx, clientId)).toBeNull();
    expect(await eventsOfType(t.ctx, "oidc_client_deleted")).toHaveLength(1);
    const refused = await tokenRequest(t, { client, secret }, { grant_type: "authorization_code", code: "x" });
    expect(refused.body.error).toBe("invalid_client");
  });

  it("registers a public client without a secret; it has none to rotate", async () => {
    const ui = await openClients();
    await register(ui, "Single Page", "https://spa.example.com/callback", "public");
    const frame = await waitForFrame(
      ui,
      (f) => f.includes("registered public client Single Page (no secret") && /Single Page .*public /.test(f),
    );
    expect(frame).not.toContain("client_secret:");
    await openClient(ui, "Single Page");
    expect(ui.lastFrame()).toContain("public (PKCE, no secret)");
    expect(ui.lastFrame()).not.toContain("new secret");
    ui.stdin.write("s");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ui.lastFrame()).not.toContain("[y/N]");
  });

  it("keeps a step open on an unreadable answer, shows the service's refusal, and esc registers nothing", async () => {
    const before = (await createAdminData(t.ctx).listOAuthClients()).length;
    const ui = await openClients();
    ui.stdin.write("n");
    await answer(ui, "client name:", "Broken");
    await answer(ui, "redirect URIs:", "https://broken.example.com/cb#fragment");
    await answer(ui, "type:", "maybe");
    await waitForFrame(ui, "expected confidential or public");
    ui.stdin.write(KEYS.backspace.repeat(5));
    ui.stdin.write("c");
    ui.stdin.write(KEYS.enter);
    await answer(ui, "ID token algorithm:", "HS256");
    await waitForFrame(ui, "expected RS256, ES256 or EdDSA");
    ui.stdin.write(KEYS.backspace.repeat(5));
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "✗ https://broken.example.com/cb#fragment has a fragment");

    ui.stdin.write("n");
    await answer(ui, "client name:", "Abandoned");
    await waitForFrame(ui, "redirect URIs:");
    ui.stdin.write(KEYS.escape);
    await waitForFrame(ui, (f) => !f.includes("redirect URIs:"));
    expect(await createAdminData(t.ctx).listOAuthClients()).toHaveLength(before);
  });
});

describe("authd admin without the OpenID Provider", () => {
  it("offers no clients screen: tab goes from API keys back to users", async () => {
    // Webhooks off too, so the API keys screen is the last one offered.
    const t = await createTestContext({ env: { AUTH_WEBHOOKS: "off" } });
    const ui = render(<AdminApp data={createAdminData(t.ctx)} />);
    try {
      const first = await waitForFrame(ui, "user(s)");
      expect(first).not.toContain("clients");
      // shift-tab from the first screen wraps to the last one offered: API keys, not clients.
      ui.stdin.write(SHIFT_TAB);
      const last = await waitForFrame(ui, "API key(s)");
      expect(last.split("\n")[0]).toMatch(/ api keys$/);
      ui.stdin.write(KEYS.tab);
      await waitForFrame(ui, "user(s)");
    } finally {
      ui.unmount();
      await t.close();
    }
  });
});
