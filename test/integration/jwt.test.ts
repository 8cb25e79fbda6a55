import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  type JSONWebKeySet,
  jwtVerify,
  SignJWT,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unseal } from "../../src/crypto/sealed.ts";
import { silentLogger } from "../../src/logger.ts";
import { KEY_CACHE_MS, rotateSigningKey } from "../../src/services/jwt/keys.ts";
import {
  createTestContext,
  describeEachDialect,
  signUp,
  TEST_ORIGIN,
  TEST_SECRET,
  type TestContext,
} from "../helpers/context.ts";

const MINUTE = 60_000;

async function keySet(t: TestContext): Promise<JSONWebKeySet> {
  const res = await t.agent().get("/jwks");
  expect(res.status).toBe(200);
  return res.body;
}

/** Verify with jose against the daemon's own /jwks, as a service would (issuer and audience checked). */
async function verify(t: TestContext, token: string, options: { issuer?: string; audience?: string } = {}) {
  const jwks = createLocalJWKSet(await keySet(t));
  return jwtVerify(token, jwks, {
    issuer: options.issuer ?? TEST_ORIGIN,
    audience: options.audience ?? TEST_ORIGIN,
    currentDate: new Date(t.clock.now),
  });
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

describeEachDialect("JWT: /token and /jwks", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("signs a token that verifies against /jwks with jose and mirrors the session user", async () => {
    const { agent, user } = await signUp(t, { name: "Jay Double-U" });
    const res = await agent.get("/token");
    expect(res.status).toBe(200);
    expect(res.setCookies).toEqual([]);
    const { payload, protectedHeader } = await verify(t, res.body.token);
    expect(protectedHeader).toEqual({ alg: "EdDSA", kid: expect.any(String) });
    const sessionUser = (await agent.get("/get-session")).body.user;
    expect(payload).toMatchObject({ ...sessionUser, sub: user.id, iss: TEST_ORIGIN, aud: TEST_ORIGIN });
    expect(payload.exp).toBe(Number(payload.iat) + 900);
    expect(Number(payload.iat)).toBe(Math.floor(t.clock.now / 1000));
  });

  it("publishes only public keys, each with its kid, one key until a rotation", async () => {
    const first = await keySet(t);
    const second = await keySet(t);
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toEqual({
      kty: "OKP",
      crv: "Ed25519",
      x: expect.any(String),
      alg: "EdDSA",
      kid: expect.any(String),
    });
    expect(second).toEqual(first);
  });

  it("answers 401 without a session and 404 to POST", async () => {
    expect((await t.agent().get("/token")).status).toBe(401);
    const { agent } = await signUp(t);
    expect((await agent.post("/token", {})).status).toBe(404);
    expect((await agent.post("/jwks", {})).status).toBe(404);
  });

  it("sends set-auth-jwt (exposed to scripts) on get-session with a session only", async () => {
    const none = await t.agent().get("/get-session");
    expect(none.body).toBeNull();
    expect(none.headers.get("set-auth-jwt")).toBeNull();
    const { agent, user } = await signUp(t);
    const res = await agent.get("/get-session");
    const jwt = res.headers.get("set-auth-jwt") ?? "";
    expect((await verify(t, jwt)).payload.sub).toBe(user.id);
    expect(res.headers.get("access-control-expose-headers")?.toLowerCase()).toContain("set-auth-jwt");
    await agent.post("/update-user", { name: "Renamed" });
    expect(decodeJwt((await agent.get("/get-session")).headers.get("set-auth-jwt") ?? "").name).toBe("Renamed");
    expect((await agent.get("/list-sessions")).headers.get("set-auth-jwt")).toBeNull();
  });

  it("hands the same token out again within a minute, never after a change of the user", async () => {
    const { agent } = await signUp(t, { name: "Same Sam" });
    const first = (await agent.get("/token")).body.token as string;
    expect((await agent.get("/token")).body.token).toBe(first);
    await agent.post("/update-user", { name: "Changed Sam" });
    const changed = (await agent.get("/token")).body.token as string;
    expect(changed).not.toBe(first);
    expect(decodeJwt(changed).name).toBe("Changed Sam");
    t.clock.advance(MINUTE);
    const later = (await agent.get("/token")).body.token as string;
    expect(decodeJwt(later).iat).toBe(Math.floor(t.clock.now / 1000));
    await verify(t, later);
  });

  it("keeps the private key sealed under the secret, never in clear", async () => {
    const rows = await t.ctx.db.selectFrom("jwks").selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.privateKey).toMatch(/^v1\./);
      expect(row.privateKey).not.toContain('"d"');
      expect(JSON.parse(row.publicKey)).not.toHaveProperty("d");
      const opened = JSON.parse(unseal(TEST_SECRET, "jwks-private-key", row.privateKey) ?? "null");
      expect(opened).toHaveProperty("d");
      expect(unseal(`${TEST_SECRET}-another`, "jwks-private-key", row.privateKey)).toBeNull();
      expect(unseal(TEST_SECRET, "another-purpose", row.privateKey)).toBeNull();
    }
  });

  it("refuses tokens signed by another key under the same kid, and altered tokens", async () => {
    const { agent, user } = await signUp(t);
    const genuine = (await agent.get("/token")).body.token as string;
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const forged = await new SignJWT({ sub: user.id, role: "admin" })
      .setProtectedHeader({ alg: "EdDSA", kid: kidOf(genuine) })
      .setIssuer(TEST_ORIGIN)
      .setAudience(TEST_ORIGIN)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    await expect(verify(t, forged)).rejects.toThrow();
    const [header, payload, signature] = genuine.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, role: "admin" })).toString("base64url");
    await expect(verify(t, `${header}.${altered}.${signature}`)).rejects.toThrow();
    await expect(verify(t, genuine, { audience: "https://another.example" })).rejects.toThrow();
  });

  it("after a rotation old tokens verify until they expire, new tokens use the new key", async () => {
    const { agent } = await signUp(t);
    const before = (await agent.get("/token")).body.token as string;
    const rotated = await rotateSigningKey(t.ctx);
    expect(rotated.retired).toEqual([kidOf(before)]);
    const after = (await agent.get("/token")).body.token as string;
    expect(kidOf(after)).toBe(rotated.id);
    expect((await keySet(t)).keys.map((k) => k.kid)).toEqual([rotated.id, kidOf(before)]);
    await verify(t, before);
    await verify(t, after);

    // Past the old token's expiry (15 minutes) and the margins, the retired key leaves the JWKS.
    t.clock.advance(15 * MINUTE + 2 * MINUTE + 1);
    expect((await keySet(t)).keys.map((k) => k.kid)).toEqual([rotated.id]);
    await expect(verify(t, before)).rejects.toThrow();
    const later = (await agent.get("/token")).body.token as string;
    expect(kidOf(later)).toBe(rotated.id);
    await verify(t, later);
  });

  it("picks up a rotation made by another process within the key cache time", async () => {
    const { agent } = await signUp(t);
    const before = kidOf((await agent.get("/token")).body.token);
    const other = await createTestContext({ databaseURL: t.ctx.config.databaseURL, dialect });
    other.clock.now = t.clock.now; // the two "processes" share one time
    const rotated = await rotateSigningKey(other.ctx);
    await other.ctx.close();
    // The running daemon still signs with its cached key, which stays published.
    const cachedToken = (await agent.get("/token")).body.token as string;
    expect(kidOf(cachedToken)).toBe(before);
    await verify(t, cachedToken);
    t.clock.advance(KEY_CACHE_MS);
    expect(kidOf((await agent.get("/token")).body.token)).toBe(rotated.id);
  });
});

describe("JWT: configured claims and algorithms", () => {
  for (const algorithm of ["ES256", "RS256"] as const) {
    it(`signs with ${algorithm} and the configured issuer, audience, lifetime and user fields`, async () => {
      const t = await createTestContext({
        config: {
          jwt: {
            algorithm,
            issuer: "https://auth.example.com",
            audience: ["orders", "billing"],
            expiresIn: 300,
            userFields: ["email", "role"],
          },
        },
      });
      try {
        const { agent, user, email } = await signUp(t, { name: "Not In Token" });
        const token = (await agent.get("/token")).body.token as string;
        const { payload, protectedHeader } = await verify(t, token, {
          issuer: "https://auth.example.com",
          audience: "billing",
        });
        expect(protectedHeader.alg).toBe(algorithm);
        expect(payload).toEqual({
          email,
          role: "user",
          sub: user.id,
          iss: "https://auth.example.com",
          aud: ["orders", "billing"],
          iat: expect.any(Number),
          exp: Number(payload.iat) + 300,
        });
        const [key] = (await keySet(t)).keys;
        expect(key.kty).toBe(algorithm === "RS256" ? "RSA" : "EC");
        for (const secret of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(secret);
        await expect(verify(t, token)).rejects.toThrow();
      } finally {
        await t.close();
      }
    });
  }

  it("retires the old key when the configured algorithm changes, and its tokens still verify", async () => {
    const first = await createTestContext();
    const { agent } = await signUp(first);
    const eddsa = (await agent.get("/token")).body.token as string;
    // A second daemon on the same database, configured for another algorithm.
    const second = await createTestContext({
      databaseURL: first.ctx.config.databaseURL,
      config: { jwt: { algorithm: "ES256" } },
    });
    try {
      const bearer = { headers: { authorization: `Bearer ${agent.cookie("session_token")}` } };
      const es256 = (await second.agent().get("/token", bearer)).body.token as string;
      expect(decodeProtectedHeader(es256).alg).toBe("ES256");
      expect((await keySet(second)).keys.map((k) => k.alg)).toEqual(["ES256", "EdDSA"]);
      await verify(second, eddsa);
      await verify(second, es256);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it("serves neither route nor header when AUTH_JWT is off", async () => {
    const t = await createTestContext({ env: { AUTH_JWT: "off" } });
    try {
      const { agent } = await signUp(t);
      expect((await agent.get("/token")).status).toBe(404);
      expect((await agent.get("/jwks")).status).toBe(404);
      const session = await agent.get("/get-session");
      expect(session.body.user).toBeTruthy();
      expect(session.headers.get("set-auth-jwt")).toBeNull();
      expect(await t.ctx.db.selectFrom("jwks").selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("makes a new key, and says so, when the stored one was sealed under another secret", async () => {
    const first = await createTestContext();
    const kid = (await keySet(first)).keys[0].kid;
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const second = await createTestContext({
      databaseURL: first.ctx.config.databaseURL,
      env: { AUTH_SECRET: "another-secret-another-secret-another-secret" },
      logger,
    });
    try {
      const { agent } = await signUp(second);
      const token = (await agent.get("/token")).body.token as string;
      expect(kidOf(token)).not.toBe(kid);
      await verify(second, token);
      expect(warnings.some((line) => line.includes("cannot be decrypted"))).toBe(true);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
