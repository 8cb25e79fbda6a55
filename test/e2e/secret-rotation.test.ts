import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { unseal } from "../../src/crypto/sealed.ts";
import { openDatabase } from "../../src/db/driver.ts";
import { describeEachDialect } from "../helpers/context.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent, uniqueEmail } from "../helpers/live-agent.ts";
import { createPostgresSchema } from "../helpers/postgres.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// Issue 26, item 2: the way out for a deployment whose secret is refused after an upgrade. Secret A made a
// session cookie, a trusted-browser cookie, a TOTP enrolment and a JWT signing key; the daemon restarts
// with AUTH_SECRET=B and AUTH_SECRET_PREVIOUS=A: all of them keep working, and the stored sealed values are
// sealed again under B, so a daemon with B alone still reads them.

const newSecret = () => randomBytes(48).toString("base64");
const COMMAND = [process.execPath, "bin/authd.ts"];
const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[0], "base64url").toString()).kid as string;

describeEachDialect("rotating AUTH_SECRET with AUTH_SECRET_PREVIOUS", (dialect) => {
  const secretA = newSecret();
  const secretB = newSecret();
  let databaseURL = "";
  let cleanup: () => Promise<void> = async () => {};
  let configFile = "";
  const running: Daemon[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-rotation-"));
    // Three TOTP steps either side: enrolment, then one sign-in per daemon, each with a newer step.
    configFile = join(dir, "authd.json");
    writeFileSync(configFile, JSON.stringify({ twoFactor: { totpWindow: 3 } }));
    if (dialect === "postgres") {
      const schema = await createPostgresSchema();
      databaseURL = schema.url;
      cleanup = async () => {
        await schema.drop();
        rmSync(dir, { recursive: true, force: true });
      };
    } else {
      databaseURL = `sqlite://${join(dir, "auth.db")}`;
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await Promise.all(running.map((daemon) => daemon.stop()));
    await cleanup();
  });

  async function daemonWith(env: Record<string, string>): Promise<Daemon> {
    const daemon = await startDaemon(COMMAND, {
      AUTH_DATABASE_URL: databaseURL,
      AUTH_CONFIG: configFile,
      AUTH_RATE_LIMIT: "off",
      AUTH_LOG_LEVEL: "info",
      AUTH_LOG_FORMAT: "json",
      ...env,
    });
    running.push(daemon);
    return daemon;
  }

  async function stop(daemon: Daemon): Promise<void> {
    expect(await daemon.stop()).toBe(0);
    running.splice(running.indexOf(daemon), 1);
  }

  /** A browser on `daemon` carrying the cookies another browser holds. */
  function browserWith(daemon: Daemon, cookies: Map<string, string>): LiveAgent {
    const agent = new LiveAgent(daemon.url, daemon.url);
    for (const [name, value] of cookies) agent.jar.set(name, value);
    return agent;
  }

  /** Sign in with password and, when asked, a TOTP code `offset` steps ahead; the session's browser. */
  async function signInWithTotp(daemon: Daemon, email: string, key: Buffer, offset: number): Promise<LiveAgent> {
    const agent = new LiveAgent(daemon.url, daemon.url);
    const first = await agent.post("/sign-in/email", { email, password: "correct-horse-battery" });
    expect(first.json).toEqual({ twoFactorRedirect: true });
    const verified = await agent.post("/two-factor/verify-totp", { code: totp(key, Date.now(), offset) });
    expect(verified.status, verified.text).toBe(200);
    return agent;
  }

  async function sealedRows() {
    const handle = openDatabase(databaseURL);
    try {
      const twoFactor = await handle.db.selectFrom("twoFactor").selectAll().execute();
      const jwks = await handle.db.selectFrom("jwks").selectAll().execute();
      return { twoFactor, jwks };
    } finally {
      await handle.close();
    }
  }

  it("keeps cookies, TOTP and the JWT key made under the old secret, and seals them again under the new", async () => {
    // Given a user under secret A: a session, two-factor on, a trusted browser and a JWT.
    const a = await daemonWith({ AUTH_SECRET: secretA });
    const email = uniqueEmail("rotation");
    const browser = new LiveAgent(a.url, a.url);
    expect(
      (await browser.post("/sign-up/email", { name: "Rotating", email, password: "correct-horse-battery" })).status,
    ).toBe(200);
    const enabled = await browser.post("/two-factor/enable", { password: "correct-horse-battery" });
    const key = keyOf((enabled.json as { totpURI: string }).totpURI);
    expect((await browser.post("/two-factor/verify-totp", { code: totp(key, Date.now()) })).status).toBe(200);
    const trusted = new LiveAgent(a.url, a.url);
    await trusted.post("/sign-in/email", { email, password: "correct-horse-battery" });
    const trust = await trusted.post("/two-factor/verify-totp", { code: totp(key, Date.now(), 1), trustDevice: true });
    expect(trust.status, trust.text).toBe(200);
    const kid = kidOf(((await browser.get("/token")).json as { token: string }).token);
    await stop(a);

    // When the daemon restarts with B, A as the previous secret,
    const b = await daemonWith({ AUTH_SECRET: secretB, AUTH_SECRET_PREVIOUS: secretA });
    expect(b.output()).toMatch(/sealed again under AUTH_SECRET.*"twoFactor":1.*"jwtKeys":1/);
    // then the session cookie made under A still signs the browser in,
    const old = browserWith(b, browser.jar);
    expect(((await old.get("/get-session")).json as { user: { email: string } }).user.email).toBe(email);
    // the JWT key made under A still signs (same kid),
    expect(kidOf(((await old.get("/token")).json as { token: string }).token)).toBe(kid);
    // the browser trusted under A skips the second factor once more,
    const again = browserWith(b, trusted.jar);
    const skipped = await again.post("/sign-in/email", { email, password: "correct-horse-battery" });
    expect(skipped.json).toMatchObject({ user: { email } });
    // and the TOTP secret sealed under A verifies a code.
    await signInWithTotp(b, email, key, 2);
    // At rest, both sealed values now open under B alone.
    const rows = await sealedRows();
    expect(rows.twoFactor).toHaveLength(1);
    expect(unseal(secretB, "two-factor-secret", rows.twoFactor[0].secret)).not.toBeNull();
    expect(unseal(secretA, "two-factor-secret", rows.twoFactor[0].secret)).toBeNull();
    expect(unseal(secretB, "two-factor-backup-codes", rows.twoFactor[0].backupCodes)).not.toBeNull();
    expect(rows.jwks.map((row) => unseal(secretB, "jwks-private-key", row.privateKey) !== null)).toEqual([true]);
    await stop(b);

    // Once AUTH_SECRET_PREVIOUS is gone, a daemon with B alone reads them: nothing was lost,
    const c = await daemonWith({ AUTH_SECRET: secretB });
    const fresh = await signInWithTotp(c, email, key, 3);
    expect(kidOf(((await fresh.get("/token")).json as { token: string }).token)).toBe(kid);
    // and what A signed counts for nothing any more.
    expect((await browserWith(c, browser.jar).get("/get-session")).json).toBeNull();
    await stop(c);
  }, 120_000);

  it("sweeps idempotently: a second start under the same secrets seals nothing again", async () => {
    const before = await sealedRows();
    const d = await daemonWith({ AUTH_SECRET: secretB, AUTH_SECRET_PREVIOUS: secretA });
    expect(d.output()).toMatch(/"twoFactor":0.*"jwtKeys":0.*"unreadable":0/);
    expect(await sealedRows()).toEqual(before);
    await stop(d);
  }, 60_000);
});
