import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Dialect, describeEachDialect, SERVER_TOKEN } from "../helpers/context.ts";
import { cookiesOf, livePost, liveSignIn, liveSignUp, WRONG_PASSWORD } from "../helpers/live-auth.ts";
import { type PeerResponse, type RunningAuthd, startAuthd, startSecondAuthd } from "../helpers/live-server.ts";
import { mailCount, mailedLink } from "../helpers/mail-links.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { redisEnv, redisSkipped } from "../helpers/redis.ts";

// The per-account throttle over real sockets: every attempt comes from a loopback address of its own
// (so the per-address rule, which stays on, never trips), yet once an account's count is full the next
// attempt is refused, with the right password too, on every daemon sharing the rate-limit storage.
// Most daemons here allow 3 failures to keep the suite quick; one checks the default of 10.

const MAX_FAILURES = 3;
const throttled = {
  accountThrottle: { maxFailures: MAX_FAILURES },
  rateLimit: { customRules: { "/sign-up/email": false as const } },
};
let addressCount = 0;
/** A loopback address no other attempt in this file used: a new machine. */
const fresh = () => {
  addressCount += 1;
  return `127.1.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
};

const TOO_MANY = {
  code: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER",
  message: "Too many requests. Please try again later.",
};

function expectThrottled(response: PeerResponse): void {
  expect({ status: response.status, body: response.json }).toEqual({ status: 429, body: TOO_MANY });
  const retryAfter = Number(response.headers["x-retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

/** Storage and dialect pairs: counters in memory and Redis do not depend on the dialect; the database's do. */
const SINGLE_DAEMON = [
  { storage: "memory", dialects: ["sqlite"] },
  { storage: "database", dialects: ["sqlite", "postgres"] },
  { storage: "secondary", dialects: ["sqlite"] },
] as const;

/** describe() per dialect the storage depends on: every dialect for the database, SQLite alone otherwise. */
function describeStorage(name: string, dialects: readonly Dialect[], body: (dialect: Dialect) => void): void {
  if (dialects.length > 1) describeEachDialect(name, body);
  else describe(`${name} [${dialects[0]}]`, () => body(dialects[0]));
}

function storageEnv(storage: string): Record<string, string> {
  return { AUTH_RATE_LIMIT: "on", AUTH_RATE_LIMIT_STORAGE: storage, ...(storage === "secondary" ? redisEnv() : {}) };
}

for (const { storage, dialects } of SINGLE_DAEMON) {
  describe.skipIf(storage === "secondary" && redisSkipped)(`per-account throttle, ${storage} storage`, () => {
    describeStorage("on one daemon", dialects, (dialect) => {
      let authd: RunningAuthd;
      let mailbox: Mailbox;
      beforeAll(async () => {
        mailbox = await startMailbox();
        authd = await startAuthd({
          dialect,
          env: { ...storageEnv(storage), AUTH_SMTP_URL: mailbox.url },
          config: throttled,
        });
      });
      afterAll(async () => {
        await authd.close();
        await mailbox.close();
      });

      const wrongFromEverywhere = async (email: string, times = MAX_FAILURES) => {
        for (let i = 0; i < times; i += 1)
          expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, { from: fresh() })).status).toBe(401);
      };

      it("refuses the next attempt for a full account from any address, the right password included", async () => {
        const victim = await liveSignUp(authd.url, { from: fresh() });
        const bystander = await liveSignUp(authd.url, { from: fresh() });
        await wrongFromEverywhere(victim.email);
        expectThrottled(await liveSignIn(authd.url, victim.email, victim.password, { from: fresh() }));
        expectThrottled(await liveSignIn(authd.url, victim.email, WRONG_PASSWORD, { from: fresh() }));
        // Other accounts, from the same addresses or not, are not affected.
        expect((await liveSignIn(authd.url, bystander.email, bystander.password, { from: fresh() })).status).toBe(200);
      });

      it("answers an unknown email exactly as a known one, attempt by attempt", async () => {
        const known = await liveSignUp(authd.url, { from: fresh() });
        const unknown = `nobody.${known.email}`;
        for (let i = 0; i <= MAX_FAILURES + 1; i += 1) {
          const a = await liveSignIn(authd.url, known.email, WRONG_PASSWORD, { from: fresh() });
          const b = await liveSignIn(authd.url, unknown, WRONG_PASSWORD, { from: fresh() });
          expect({
            attempt: i,
            status: b.status,
            body: b.json,
            retry: b.headers["x-retry-after"] !== undefined,
          }).toEqual({
            attempt: i,
            status: a.status,
            body: a.json,
            retry: a.headers["x-retry-after"] !== undefined,
          });
          expect(a.status).toBe(i < MAX_FAILURES ? 401 : 429);
        }
      });

      it("evaluates exactly the allowed number of guesses fired at once from as many addresses", async () => {
        const victim = await liveSignUp(authd.url, { from: fresh() });
        const guesses = await Promise.all(
          Array.from({ length: 12 }, () => liveSignIn(authd.url, victim.email, WRONG_PASSWORD, { from: fresh() })),
        );
        expect(guesses.filter((r) => r.status === 401)).toHaveLength(MAX_FAILURES);
        expect(guesses.filter((r) => r.status === 429)).toHaveLength(12 - MAX_FAILURES);
      });

      it("lets many correct sign-ins for one account made at the same time all through", async () => {
        const user = await liveSignUp(authd.url, { from: fresh() });
        const signIns = await Promise.all(
          Array.from({ length: 12 }, () => liveSignIn(authd.url, user.email, user.password, { from: fresh() })),
        );
        expect(signIns.map((r) => r.status)).toEqual(Array(12).fill(200));
      });

      it("starts the count over after a correct password", async () => {
        const user = await liveSignUp(authd.url, { from: fresh() });
        await wrongFromEverywhere(user.email, MAX_FAILURES - 1);
        expect((await liveSignIn(authd.url, user.email, user.password, { from: fresh() })).status).toBe(200);
        await wrongFromEverywhere(user.email);
        expectThrottled(await liveSignIn(authd.url, user.email, user.password, { from: fresh() }));
      });

      // The routes' own rules; the counters they clear are the same in every storage.
      if (storage !== "database") return;

      it("opens a throttled account after a password reset", async () => {
        const user = await liveSignUp(authd.url, { from: fresh() });
        await wrongFromEverywhere(user.email);
        expectThrottled(await liveSignIn(authd.url, user.email, user.password, { from: fresh() }));
        await authd.t.ctx.settle();
        const seen = mailCount(mailbox, user.email);
        expect(
          (
            await livePost(
              authd.url,
              "/request-password-reset",
              { email: user.email, redirectTo: "/reset" },
              { from: fresh() },
            )
          ).status,
        ).toBe(200);
        const token = (await mailedLink(mailbox, user.email, "reset", seen)).pathname.split("/").pop();
        expect(
          (
            await livePost(
              authd.url,
              "/reset-password",
              { token, newPassword: "a-brand-new-password" },
              { from: fresh() },
            )
          ).status,
        ).toBe(200);
        expect((await liveSignIn(authd.url, user.email, "a-brand-new-password", { from: fresh() })).status).toBe(200);
      });

      it("opens a throttled account when an administrator sets a new password", async () => {
        const user = await liveSignUp(authd.url, { from: fresh() });
        await wrongFromEverywhere(user.email);
        expectThrottled(await liveSignIn(authd.url, user.email, user.password, { from: fresh() }));
        const userId = (user.response.json as { user: { id: string } }).user.id;
        const set = await livePost(
          authd.url,
          "/admin/set-user-password",
          { userId, newPassword: "set-by-the-operator" },
          { from: fresh(), headers: { authorization: `Bearer ${SERVER_TOKEN}` } },
        );
        expect(set.status).toBe(200);
        expect((await liveSignIn(authd.url, user.email, "set-by-the-operator", { from: fresh() })).status).toBe(200);
      });

      it("throttles username sign-in per username; a correct password by email clears both counts", async () => {
        const username = `thr_${Math.random().toString(36).slice(2, 10)}`;
        const signUp = await livePost(
          authd.url,
          "/sign-up/email",
          { name: "U", email: `${username}@example.com`, password: "correct-horse-battery", username },
          { from: fresh() },
        );
        expect(signUp.status).toBe(200);
        const byName = (name: string, password: string) =>
          livePost(authd.url, "/sign-in/username", { username: name, password }, { from: fresh() });
        for (let i = 0; i < MAX_FAILURES; i += 1) expect((await byName(username, WRONG_PASSWORD)).status).toBe(401);
        expectThrottled(await byName(username, "correct-horse-battery"));
        // An unknown username fills up and answers the same way.
        for (let i = 0; i < MAX_FAILURES; i += 1)
          expect((await byName(`${username}_ghost`, WRONG_PASSWORD)).status).toBe(401);
        expectThrottled(await byName(`${username}_ghost`, WRONG_PASSWORD));
        expect(
          (await liveSignIn(authd.url, `${username}@example.com`, "correct-horse-battery", { from: fresh() })).status,
        ).toBe(200);
        expect((await byName(username, "correct-horse-battery")).status).toBe(200);
      });

      it("counts change-password guesses from a session with the account's sign-ins", async () => {
        const user = await liveSignUp(authd.url, { from: fresh() });
        const cookie = cookiesOf(user.response);
        const change = (currentPassword: string) =>
          livePost(
            authd.url,
            "/change-password",
            { currentPassword, newPassword: "another-new-password" },
            { from: fresh(), headers: { cookie } },
          );
        for (let i = 0; i < MAX_FAILURES; i += 1) expect((await change(WRONG_PASSWORD)).status).toBe(400);
        expectThrottled(await change(user.password));
        expectThrottled(await liveSignIn(authd.url, user.email, user.password, { from: fresh() }));
      });

      it("counts delete-user password guesses from a session too", async () => {
        const user = await liveSignUp(authd.url, { from: fresh() });
        const cookie = cookiesOf(user.response);
        const remove = (password: string) =>
          livePost(authd.url, "/delete-user", { password }, { from: fresh(), headers: { cookie } });
        for (let i = 0; i < MAX_FAILURES; i += 1) expect((await remove(WRONG_PASSWORD)).status).toBe(400);
        expectThrottled(await remove(user.password));
      });
    });
  });
}

describe("per-account throttle defaults", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd({ env: { AUTH_RATE_LIMIT: "on" } });
  });
  afterAll(() => authd.close());

  it("allows 10 failures for one account, then refuses the 11th from a new address", async () => {
    const user = await liveSignUp(authd.url, { from: fresh() });
    for (let i = 0; i < 10; i += 1)
      expect((await liveSignIn(authd.url, user.email, WRONG_PASSWORD, { from: fresh() })).status).toBe(401);
    const refused = await liveSignIn(authd.url, user.email, user.password, { from: fresh() });
    expectThrottled(refused);
    // The window is 15 minutes from the last counted attempt.
    expect(Number(refused.headers["x-retry-after"])).toBeGreaterThan(800);
  });
});

const SHARED = [
  { storage: "database", dialects: ["sqlite", "postgres"] },
  { storage: "secondary", dialects: ["sqlite"] },
] as const;

for (const { storage, dialects } of SHARED) {
  describe.skipIf(storage === "secondary" && redisSkipped)(
    `per-account throttle shared by two daemons, ${storage} storage`,
    () => {
      describeStorage("two daemons", dialects, (dialect) => {
        let first: RunningAuthd;
        let second: { url: string; close(): Promise<void> };
        beforeAll(async () => {
          first = await startAuthd({ dialect, env: storageEnv(storage), config: throttled });
          second = await startSecondAuthd(first);
        });
        afterAll(async () => {
          await second.close();
          await first.close();
        });

        it("counts attempts made on either daemon, refuses on both, and a success on one clears both", async () => {
          const user = await liveSignUp(first.url, { from: fresh() });
          const daemons = [first.url, second.url];
          for (let i = 0; i < MAX_FAILURES - 1; i += 1)
            expect((await liveSignIn(daemons[i % 2], user.email, WRONG_PASSWORD, { from: fresh() })).status).toBe(401);
          expect((await liveSignIn(second.url, user.email, user.password, { from: fresh() })).status).toBe(200);
          for (let i = 0; i < MAX_FAILURES; i += 1)
            expect((await liveSignIn(daemons[i % 2], user.email, WRONG_PASSWORD, { from: fresh() })).status).toBe(401);
          for (const url of daemons)
            expectThrottled(await liveSignIn(url, user.email, user.password, { from: fresh() }));
        });

        it("lets exactly the allowed number of simultaneous guesses through across both daemons", async () => {
          const user = await liveSignUp(first.url, { from: fresh() });
          const guesses = await Promise.all(
            Array.from({ length: 12 }, (_, i) =>
              liveSignIn(i % 2 === 0 ? first.url : second.url, user.email, WRONG_PASSWORD, { from: fresh() }),
            ),
          );
          expect(guesses.filter((r) => r.status === 401)).toHaveLength(MAX_FAILURES);
          expect(guesses.filter((r) => r.status === 429)).toHaveLength(12 - MAX_FAILURES);
        });
      });
    },
  );
}

describe("per-account throttle switched off", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd({ env: { AUTH_ACCOUNT_THROTTLE: "off" } });
  });
  afterAll(() => authd.close());

  it("evaluates every attempt (AUTH_ACCOUNT_THROTTLE=off)", async () => {
    const user = await liveSignUp(authd.url, { from: fresh() });
    for (let i = 0; i < 12; i += 1)
      expect((await liveSignIn(authd.url, user.email, WRONG_PASSWORD, { from: fresh() })).status).toBe(401);
    expect((await liveSignIn(authd.url, user.email, user.password, { from: fresh() })).status).toBe(200);
  });
});
