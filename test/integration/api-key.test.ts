import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../../src/crypto/random.ts";
import { createApiKey, deleteApiKey, listApiKeys } from "../../src/services/api-keys/api-keys.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { updateUser } from "../../src/services/users.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

const DAY = 86_400;
const SERVER_ONLY = {
  code: "THE_PROPERTY_YOURE_TRYING_TO_SET_CAN_ONLY_BE_SET_FROM_THE_SERVER_AUTH_INSTANCE_ONLY",
  message: "The property you're trying to set can only be set from the server auth instance only.",
};
const NOT_FOUND = { code: "KEY_NOT_FOUND", message: "API Key not found" };

describeEachDialect("API key management", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_API_KEY_METADATA: "on" } });
  });
  afterAll(() => t.close());

  describe("POST /api-key/create", () => {
    it("returns the full key once: prefix plus 64 letters, stored as its SHA-256, first 6 characters kept as start", async () => {
      const { agent, user } = await signUp(t);
      const res = await agent.post("/api-key/create", { name: "ci-key", prefix: "ci_", metadata: { env: "test" } });
      expect(res.status).toBe(200);
      expect(res.body.key).toMatch(/^ci_[A-Za-z]{64}$/);
      expect(res.body).toMatchObject({
        name: "ci-key",
        prefix: "ci_",
        start: res.body.key.slice(0, 6),
        userId: user.id,
        enabled: true,
        remaining: null,
        requestCount: 0,
        rateLimitEnabled: true,
        rateLimitMax: 10,
        rateLimitTimeWindow: 86_400_000,
        refillAmount: null,
        refillInterval: null,
        expiresAt: null,
        lastRequest: null,
        lastRefillAt: null,
        metadata: { env: "test" },
        permissions: null,
      });
      const stored = await t.ctx.db
        .selectFrom("apikey")
        .select(["key", "metadata"])
        .where("id", "=", res.body.id)
        .executeTakeFirstOrThrow();
      expect(stored.key).toBe(sha256Base64Url(res.body.key));
      expect(stored.metadata).toBe(JSON.stringify({ env: "test" }));

      const got = await agent.get("/api-key/get", { query: { id: res.body.id } });
      expect(got.status).toBe(200);
      expect(got.body).not.toHaveProperty("key");
      expect(got.body.start).toBe(res.body.start);
      const list = await agent.get("/api-key/list");
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).not.toHaveProperty("key");
    });

    it("creates distinct keys with no fields given, with nulls for name, prefix and metadata", async () => {
      const { agent } = await signUp(t);
      const [a, b] = [await agent.post("/api-key/create", {}), await agent.post("/api-key/create", {})];
      expect(a.body.key).toMatch(/^[A-Za-z]{64}$/);
      expect(a.body.key).not.toBe(b.body.key);
      expect(a.body).toMatchObject({ name: null, prefix: null, metadata: null });
    });

    it("sets the expiry from expiresIn seconds within 1 to 365 days, and none for null", async () => {
      const { agent } = await signUp(t);
      const two = await agent.post("/api-key/create", { expiresIn: 2 * DAY });
      expect(Date.parse(two.body.expiresAt) - Date.parse(two.body.createdAt)).toBe(2 * DAY * 1000);
      expect((await agent.post("/api-key/create", { expiresIn: DAY })).status).toBe(200);
      expect((await agent.post("/api-key/create", { expiresIn: 365 * DAY })).status).toBe(200);
      expect((await agent.post("/api-key/create", { expiresIn: null })).body.expiresAt).toBeNull();
      expect((await agent.post("/api-key/create", { expiresIn: DAY - 1 })).body.code).toBe(
        "THE_EXPIRESIN_IS_SMALLER_THAN_THE_PREDEFINED_MINIMUM_VALUE",
      );
      expect((await agent.post("/api-key/create", { expiresIn: 366 * DAY })).body.code).toBe(
        "THE_EXPIRESIN_IS_LARGER_THAN_THE_PREDEFINED_MAXIMUM_VALUE",
      );
      for (const expiresIn of [0, -5, "86400"]) {
        const res = await agent.post("/api-key/create", { expiresIn });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
    });

    it("refuses bad names, prefixes and metadata, and creates nothing when it does", async () => {
      const { agent } = await signUp(t);
      const create = (body: Record<string, unknown>) => agent.post("/api-key/create", body);
      expect((await create({ name: "n".repeat(33) })).body.code).toBe(
        "THE_NAME_LENGTH_IS_EITHER_TOO_LARGE_OR_TOO_SMALL",
      );
      expect((await create({ name: "" })).body.code).toBe("THE_NAME_LENGTH_IS_EITHER_TOO_LARGE_OR_TOO_SMALL");
      expect((await create({ name: 42 })).body.code).toBe("VALIDATION_ERROR");
      expect((await create({ prefix: "p".repeat(33) })).body.code).toBe(
        "THE_PREFIX_LENGTH_IS_EITHER_TOO_LARGE_OR_TOO_SMALL",
      );
      for (const prefix of ["bad prefix!", "pk.v1", ""]) expect((await create({ prefix })).status).toBe(400);
      for (const metadata of ["not-an-object", 42, true, [1, 2]]) {
        const res = await create({ metadata });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: "METADATA_MUST_BE_AN_OBJECT_OR_UNDEFINED",
          message: "metadata must be an object or undefined",
        });
      }
      expect((await agent.get("/api-key/list")).body).toEqual([]);
      expect((await create({ name: "n".repeat(32), prefix: "my-app_" })).body.key).toMatch(/^my-app_[A-Za-z]{64}$/);
    });

    it("refuses server-only fields from a client and creates nothing", async () => {
      const { agent } = await signUp(t);
      const cases = [
        { remaining: 5 },
        { permissions: { files: ["read"] } },
        { rateLimitMax: 3 },
        { rateLimitTimeWindow: 1000 },
        { rateLimitEnabled: false },
        { refillAmount: 5, refillInterval: 1 },
        { refillAmount: 5 },
        { refillInterval: 1 },
        { name: "sneaky", remaining: 100 },
      ];
      for (const body of cases) {
        const res = await agent.post("/api-key/create", body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(SERVER_ONLY);
      }
      expect((await agent.get("/api-key/list")).body).toEqual([]);
    });

    it("refuses a client naming another user's id", async () => {
      const { agent } = await signUp(t);
      const other = await signUp(t);
      expect((await agent.post("/api-key/create", { userId: other.user.id })).body).toEqual(SERVER_ONLY);
      expect((await other.agent.get("/api-key/list")).body).toEqual([]);
    });

    it("lets the server create for a named user with remaining, permissions and rate limits; without a user it is 401", async () => {
      const { agent, user } = await signUp(t);
      const res = await t.server().post("/api-key/create", {
        userId: user.id,
        prefix: "svc_",
        remaining: 3,
        permissions: { reports: ["read"] },
        rateLimitMax: 2,
        rateLimitTimeWindow: 1000,
        rateLimitEnabled: false,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        userId: user.id,
        remaining: 3,
        permissions: { reports: ["read"] },
        rateLimitMax: 2,
        rateLimitTimeWindow: 1000,
        rateLimitEnabled: false,
      });
      expect((await agent.get("/api-key/list")).body.map((k: { id: string }) => k.id)).toEqual([res.body.id]);
      const orphan = await t.server().post("/api-key/create", { name: "orphan" });
      expect(orphan.status).toBe(401);
      expect(orphan.body).toEqual({
        code: "UNAUTHORIZED_OR_INVALID_SESSION",
        message: "Unauthorized or invalid session",
      });
      const zero = await t.server().post("/api-key/create", { userId: user.id, remaining: 0 });
      expect(zero.body.remaining).toBe(0);
    });

    it("requires refillAmount and refillInterval together; remaining starts at refillAmount", async () => {
      const { user } = await signUp(t);
      const server = t.server();
      expect((await server.post("/api-key/create", { userId: user.id, refillAmount: 5 })).body.message).toBe(
        "refillInterval is required when refillAmount is provided",
      );
      expect((await server.post("/api-key/create", { userId: user.id, refillInterval: 1 })).body.message).toBe(
        "refillAmount is required when refillInterval is provided",
      );
      const both = await server.post("/api-key/create", { userId: user.id, refillAmount: 5, refillInterval: 1 });
      expect(both.body).toMatchObject({ refillAmount: 5, refillInterval: 1, remaining: 5, lastRefillAt: null });
    });

    it("answers 401 Unauthorized or invalid session without a session", async () => {
      const res = await t.agent().post("/api-key/create", { name: "x" });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("UNAUTHORIZED_OR_INVALID_SESSION");
    });
  });

  describe("get, list, update and delete", () => {
    it("shows and changes only the caller's own keys", async () => {
      const alice = await signUp(t);
      const bob = await signUp(t);
      const key = (await alice.agent.post("/api-key/create", { name: "alice-1" })).body;
      expect((await bob.agent.get("/api-key/list")).body).toEqual([]);
      for (const res of [
        await bob.agent.get("/api-key/get", { query: { id: key.id } }),
        await bob.agent.post("/api-key/update", { keyId: key.id, name: "hijack" }),
        await bob.agent.post("/api-key/delete", { keyId: key.id }),
        await alice.agent.get("/api-key/get", { query: { id: "no-such-key" } }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await alice.agent.get("/api-key/get", { query: { id: key.id } })).body.name).toBe("alice-1");
    });

    it("updates name, enabled, metadata and expiry, refuses an empty update, and leaves counters alone", async () => {
      const { agent, user } = await signUp(t);
      const key = (await t.server().post("/api-key/create", { userId: user.id, name: "before", remaining: 10 })).body;
      const update = (body: Record<string, unknown>) => agent.post("/api-key/update", { keyId: key.id, ...body });
      const renamed = await update({ name: "after", enabled: false, metadata: { v: 2 } });
      expect(renamed.body).toMatchObject({
        name: "after",
        enabled: false,
        metadata: { v: 2 },
        remaining: 10,
        requestCount: 0,
        lastRequest: null,
      });
      expect(renamed.body).not.toHaveProperty("key");
      const expiring = await update({ expiresIn: 2 * DAY });
      expect(Date.parse(expiring.body.expiresAt)).toBe(t.clock.now + 2 * DAY * 1000);
      expect((await update({ expiresIn: null })).body.expiresAt).toBeNull();
      const empty = await update({});
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ code: "NO_VALUES_TO_UPDATE", message: "No values to update." });
      expect((await update({ name: "" })).body.code).toBe("THE_NAME_LENGTH_IS_EITHER_TOO_LARGE_OR_TOO_SMALL");
      expect((await update({ expiresIn: 60 })).body.code).toBe(
        "THE_EXPIRESIN_IS_SMALLER_THAN_THE_PREDEFINED_MINIMUM_VALUE",
      );
      expect((await update({ metadata: "s" })).body.code).toBe("METADATA_MUST_BE_AN_OBJECT_OR_UNDEFINED");
      expect((await update({ enabled: "no" })).body.code).toBe("VALIDATION_ERROR");
      for (const body of [
        { remaining: 3 },
        { permissions: { a: ["b"] } },
        { refillAmount: 3, refillInterval: 1 },
        { rateLimitMax: 1 },
      ]) {
        expect((await update(body)).body).toEqual(SERVER_ONLY);
      }
    });

    it("lets the server update server-only fields, including clearing permissions", async () => {
      const { user } = await signUp(t);
      const server = t.server();
      const key = (await server.post("/api-key/create", { userId: user.id, permissions: { reports: ["read"] } })).body;
      const res = await server.post("/api-key/update", {
        keyId: key.id,
        userId: user.id,
        remaining: 10,
        rateLimitMax: 50,
        refillAmount: 9,
        refillInterval: 2,
        permissions: { reports: ["read", "export"] },
      });
      expect(res.body).toMatchObject({
        remaining: 10,
        rateLimitMax: 50,
        refillAmount: 9,
        refillInterval: 2,
        permissions: { reports: ["read", "export"] },
      });
      expect(
        (await server.post("/api-key/update", { keyId: key.id, userId: user.id, refillAmount: 9 })).body.message,
      ).toBe("refillInterval is required when refillAmount is provided");
      expect(
        (await server.post("/api-key/update", { keyId: key.id, userId: user.id, permissions: null })).body.permissions,
      ).toBeNull();
    });

    it("deletes the caller's key, after which it is not found anywhere", async () => {
      const { agent } = await signUp(t);
      const doomed = (await agent.post("/api-key/create", { name: "doomed" })).body;
      const kept = (await agent.post("/api-key/create", { name: "kept" })).body;
      expect((await agent.post("/api-key/delete", { keyId: doomed.id })).body).toEqual({ success: true });
      expect((await agent.post("/api-key/delete", { keyId: doomed.id })).status).toBe(404);
      expect((await agent.get("/api-key/list")).body.map((k: { id: string }) => k.id)).toEqual([kept.id]);
      expect((await t.server().post("/api-key/verify", { key: doomed.key })).body).toEqual({
        valid: false,
        error: NOT_FOUND,
        key: null,
      });
    });

    it("refuses deletion by a banned user", async () => {
      const { agent, user } = await signUp(t);
      const key = (await agent.post("/api-key/create", {})).body;
      await updateUser(t.ctx, user.id, { banned: true, banReason: "abuse" });
      const res = await agent.post("/api-key/delete", { keyId: key.id });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "USER_IS_BANNED", message: "User is banned" });
      await updateUser(t.ctx, user.id, { banned: false });
      expect((await agent.get("/api-key/list")).body).toHaveLength(1);
    });

    it("asks a session for a recent sign-in to create or delete a key, the server never", async () => {
      const { agent, user, email, password } = await signUp(t);
      const key = (await agent.post("/api-key/create", { name: "early" })).body;
      // Past account.freshAge (10 minutes) the session still works, but not for a credential.
      t.clock.advance(601_000);
      const stale = { code: "SESSION_IS_NOT_FRESH", message: "Session is not fresh" };
      const created = await agent.post("/api-key/create", { name: "late" });
      expect(created.status).toBe(403);
      expect(created.body).toEqual(stale);
      const deleted = await agent.post("/api-key/delete", { keyId: key.id });
      expect(deleted.status).toBe(403);
      expect(deleted.body).toEqual(stale);
      expect((await agent.get("/api-key/list")).body.map((k: { name: string }) => k.name)).toEqual(["early"]);
      // The server acts for the user whatever the user's sessions' age; signing in again makes a fresh one.
      expect((await t.server().post("/api-key/create", { userId: user.id, name: "server" })).status).toBe(200);
      const again = t.agent();
      await again.post("/sign-in/email", { email, password });
      expect((await again.post("/api-key/delete", { keyId: key.id })).body).toEqual({ success: true });
    });

    it("requires a session for get, list and delete, and hides server-only routes from clients", async () => {
      const { agent } = await signUp(t);
      const key = (await agent.post("/api-key/create", {})).body;
      const anon = t.agent();
      expect((await anon.get("/api-key/list")).status).toBe(401);
      expect((await anon.get("/api-key/get", { query: { id: key.id } })).status).toBe(401);
      expect((await anon.post("/api-key/delete", { keyId: key.id })).status).toBe(401);
      expect((await agent.post("/api-key/verify", { key: key.key })).status).toBe(404);
      expect((await agent.post("/api-key/delete-all-expired-api-keys", {})).status).toBe(404);
      expect((await t.server().post("/api-key/delete-all-expired-api-keys", {})).body).toEqual({
        success: true,
        error: null,
      });
    });
  });

  describe("service functions used by the CLI", () => {
    it("creates, lists and deletes keys for a user without HTTP", async () => {
      const { user } = await signUp(t);
      const created = await createApiKey(
        t.ctx,
        { userId: user.id, name: "cli", prefix: "cli_", expiresIn: 30 * DAY, remaining: 5 },
        { isServer: true },
        CLI_SOURCE,
      );
      expect(created.key).toMatch(/^cli_[A-Za-z]{64}$/);
      expect(created).toMatchObject({ name: "cli", remaining: 5, userId: user.id });
      expect((await listApiKeys(t.ctx, user.id)).map((k) => k.id)).toEqual([created.id]);
      await deleteApiKey(t.ctx, user.id, created.id, CLI_SOURCE);
      expect(await listApiKeys(t.ctx, user.id)).toEqual([]);
      await expect(deleteApiKey(t.ctx, user.id, created.id, CLI_SOURCE)).rejects.toMatchObject({
        code: "KEY_NOT_FOUND",
      });
    });
  });
});

describe("API key options", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: {
        apiKey: {
          requireName: true,
          disableKeyHashing: true,
          defaultPrefix: "ak_",
          startingCharactersLength: 4,
          keyExpiration: { disableCustomExpiresTime: true, defaultExpiresIn: 3_600_000 },
        },
      },
    });
  });
  afterAll(() => t.close());

  it("applies the configured defaults and switches", async () => {
    const { agent } = await signUp(t);
    expect((await agent.post("/api-key/create", { metadata: { a: 1 } })).body).toEqual({
      code: "METADATA_IS_DISABLED",
      message: "Metadata is disabled.",
    });
    expect((await agent.post("/api-key/create", {})).body.code).toBe(
      "THE_NAME_LENGTH_IS_EITHER_TOO_LARGE_OR_TOO_SMALL",
    );
    expect((await agent.post("/api-key/create", { name: "x", expiresIn: 2 * DAY })).body).toEqual({
      code: "CUSTOM_KEY_EXPIRATION_VALUES_ARE_DISABLED",
      message: "Custom key expiration values are disabled.",
    });
    const res = await agent.post("/api-key/create", { name: "x" });
    expect(res.body.key).toMatch(/^ak_[A-Za-z]{64}$/);
    expect(res.body.start).toBe(res.body.key.slice(0, 4));
    expect(Date.parse(res.body.expiresAt)).toBe(t.clock.now + 3_600_000);
    const stored = await t.ctx.db
      .selectFrom("apikey")
      .select("key")
      .where("id", "=", res.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.key).toBe(res.body.key);
    expect((await t.server().post("/api-key/verify", { key: res.body.key })).body.valid).toBe(true);
  });
});
