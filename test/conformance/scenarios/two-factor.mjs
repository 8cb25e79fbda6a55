// Two-factor (twoFactor plugin, defaults; codes by mail with "two-factor" and the code): enrolment with the
// password, the first TOTP turning it on, the sign-in challenge (twoFactorRedirect + two_factor cookie), TOTP,
// mailed codes (5 tries), backup codes, trusted devices and disabling. TOTP codes are computed here (RFC 6238)
// from the secret in the otpauth URI.
//
// Places where Better Auth 1.3.4 is wrong (plugins.md §6) are asserted with ctx.spec (daemon only) and are not
// recorded as observations; they are commented "REF≠SPEC".
import { createHmac } from "node:crypto";
import { cookieFacts } from "../lib/observe.mjs";

const PW = "correct-horse-battery";
const statusOnly = { pick: () => null };
const codeOnly = { pick: (b) => ({ code: b?.code ?? null }) };

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function keyOf(uri) {
  const text = new URL(uri).searchParams.get("secret") ?? "";
  let bits = 0,
    value = 0;
  const out = [];
  for (const ch of text) {
    value = (value << 5) | B32.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
function totp(key, offset = 0) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30000) + offset));
  const mac = createHmac("sha1", key).update(counter).digest();
  const o = mac[mac.length - 1] & 15;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1e6).padStart(6, "0");
}
/** A 6-digit code that is none of the codes accepted now. */
function wrongCode(key) {
  const valid = new Set([-1, 0, 1].map((d) => totp(key, d)));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, "0");
    if (!valid.has(c)) return c;
  }
}

const ID_KEYS = new Set(["id", "userId", "token"]);
function scrub(v) {
  if (Array.isArray(v)) return v.map(scrub);
  if (v && typeof v === "object") {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = ID_KEYS.has(k) && typeof x === "string" ? "<id>" : scrub(x);
    return o;
  }
  return v;
}
/** The cookies a response sets that the two-factor flow is about: set (with Max-Age) or cleared. */
function cookies(res) {
  const facts = cookieFacts(res.setCookies);
  const out = {};
  for (const name of ["session_token", "two_factor", "trust_device"]) {
    const c = facts[`better-auth.${name}`];
    out[name] = !c ? "untouched" : c.cleared ? "cleared" : { maxAge: c.maxAge };
  }
  return out;
}
const sess = (b) =>
  b && typeof b === "object" && "user" in b
    ? { email: b.user?.email, twoFactorEnabled: b.user?.twoFactorEnabled ?? null }
    : b;
const uriShape = (uri, email) => {
  if (typeof uri !== "string") return uri ?? null;
  const u = new URL(uri);
  return {
    prefix: uri.slice(0, uri.indexOf("?")).replace(encodeURIComponent(email), "<email>"),
    secretLength: (u.searchParams.get("secret") ?? "").length,
    base32: /^[A-Z2-7]+$/.test(u.searchParams.get("secret") ?? ""),
    query: [...u.searchParams.keys()],
    issuer: u.searchParams.get("issuer"),
    digits: u.searchParams.get("digits"),
    period: u.searchParams.get("period"),
  };
};
const codesShape = (b) =>
  Array.isArray(b?.backupCodes)
    ? {
        status: b.status,
        count: b.backupCodes.length,
        shape: b.backupCodes.every((c) => /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(c)),
      }
    : b;

/** Sign up, enable, and turn two-factor on with a first code. */
async function enrolled(ctx) {
  const a = ctx.agent();
  const { email } = await ctx.signUp(a, { email: ctx.email("tf") });
  const e = await a.post("/two-factor/enable", { password: PW });
  const key = keyOf(e.body.totpURI);
  await a.post("/two-factor/verify-totp", { code: totp(key) });
  return { a, email, key, backupCodes: e.body.backupCodes };
}
async function challenged(ctx, email, extra = {}) {
  const b = ctx.agent();
  const res = await b.post("/sign-in/email", { email, password: PW, ...extra });
  return { b, res };
}

export default [
  {
    name: "enable and get-totp-uri: password, URI, backup codes, refusals",
    async run(ctx) {
      const a = ctx.agent();
      const { email } = await ctx.signUp(a, { email: ctx.email("en") });
      ctx.obs("enable without a session", await ctx.agent().post("/two-factor/enable", { password: PW }), statusOnly);
      ctx.obs("enable, missing password", await a.post("/two-factor/enable", {}), codeOnly);
      ctx.obs("enable, wrong password", await a.post("/two-factor/enable", { password: "wrong-password-1" }));
      ctx.obs("get-totp-uri before enable", await a.post("/two-factor/get-totp-uri", { password: "wrong-password-1" }));
      const e = await a.post("/two-factor/enable", { password: PW, issuer: "My App" });
      ctx.obs("enable with an issuer", e, {
        pick: (b) => ({ uri: uriShape(b?.totpURI, email), codes: codesShape(b) }),
        cookies: false,
      });
      ctx.fact("enable sets no cookie", e.setCookies.length);
      ctx.obs("get-session: not on yet", await a.get("/get-session"), { pick: sess });
      ctx.obs(
        "get-totp-uri, wrong password",
        await a.post("/two-factor/get-totp-uri", { password: "wrong-password-1" }),
      );
      ctx.obs("get-totp-uri, empty password", await a.post("/two-factor/get-totp-uri", { password: "" }));
      const g = await a.post("/two-factor/get-totp-uri", { password: PW });
      ctx.obs("get-totp-uri: the app name as issuer", g, { pick: (b) => uriShape(b?.totpURI, email) });
      ctx.fact("get-totp-uri has the enabled secret", keyOf(g.body.totpURI).equals(keyOf(e.body.totpURI)));
      ctx.obs(
        "generate-backup-codes before the first code",
        await a.post("/two-factor/generate-backup-codes", { password: PW }),
      );
      ctx.obs("send-otp before the first code", await a.post("/two-factor/send-otp", {}));
      ctx.obs(
        "sign-in before the first code: not challenged",
        await ctx.agent().post("/sign-in/email", { email, password: PW }),
        { pick: (b) => ({ twoFactorRedirect: b?.twoFactorRedirect ?? null, token: typeof b?.token }) },
      );
    },
  },
  {
    name: "first TOTP turns it on; sign-in is challenged; TOTP completes it",
    async run(ctx) {
      const a = ctx.agent();
      const { email } = await ctx.signUp(a, { email: ctx.email("on") });
      const e = await a.post("/two-factor/enable", { password: PW });
      const key = keyOf(e.body.totpURI);
      const w = await a.post("/two-factor/verify-totp", { code: wrongCode(key) });
      ctx.spec(
        w.status === 401 && w.body?.code === "INVALID_CODE",
        `signed-in wrong code: 401 INVALID_CODE (got ${w.status} ${w.body?.code})`,
      ); // REF≠SPEC
      const before = a.cookie("session_token");
      const v = await a.post("/two-factor/verify-totp", { code: totp(key) });
      ctx.obs("first verification", v, { pick: scrub });
      ctx.fact("first verification: cookies", cookies(v));
      ctx.fact("the session cookie changed", a.cookie("session_token") !== before);
      const s = await a.get("/get-session", { query: { disableCookieCache: true } });
      ctx.obs("get-session: on", s, { pick: sess });
      ctx.spec(s.body?.session?.token === v.body?.token, "the answer's token is the new session's"); // REF≠SPEC
      ctx.obs("verify-totp again, signed in", await a.post("/two-factor/verify-totp", { code: totp(key) }), {
        pick: scrub,
      });
      ctx.obs("sign-out", await a.post("/sign-out", {}), statusOnly);
      const { b, res } = await challenged(ctx, email, { callbackURL: "/dashboard" });
      ctx.obs("sign-in: challenge", res);
      ctx.fact("sign-in: cookies", cookies(res));
      ctx.fact("sign-in: no Location", res.headers.get("location"));
      ctx.obs("get-session while challenged", await b.get("/get-session"));
      ctx.obs("wrong code", await b.post("/two-factor/verify-totp", { code: wrongCode(key) }));
      ctx.obs("missing code", await b.post("/two-factor/verify-totp", {}), codeOnly);
      const ok = await b.post("/two-factor/verify-totp", { code: totp(key) });
      ctx.obs("right code", ok, { pick: scrub });
      ctx.fact("right code: cookies", {
        session_token: cookies(ok).session_token,
        trust_device: cookies(ok).trust_device,
      });
      ctx.obs("get-session after", await b.get("/get-session"), { pick: sess });
      const user = await ctx.signUp(ctx.agent(), { email: ctx.email("un"), username: "tf_user" });
      const ua = ctx.agent();
      await ua.post("/sign-in/email", { email: user.email, password: PW });
      const ue = await ua.post("/two-factor/enable", { password: PW });
      await ua.post("/two-factor/verify-totp", { code: totp(keyOf(ue.body.totpURI)) });
      ctx.obs(
        "username sign-in: challenge",
        await ctx.agent().post("/sign-in/username", { username: "tf_user", password: PW }),
      );
      ctx.obs(
        "wrong password: refused first",
        await ctx.agent().post("/sign-in/email", { email, password: "wrong-password-1" }),
        { cookies: true },
      );
    },
  },
  {
    name: "challenge cookie: missing, forged, used",
    async run(ctx) {
      const { email, key } = await enrolled(ctx);
      ctx.obs("no cookie", await ctx.agent().post("/two-factor/verify-totp", { code: "123456" }));
      const f = ctx.agent();
      f.jar.set("better-auth.two_factor", "2fa-AAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D");
      ctx.obs("forged cookie", await f.post("/two-factor/verify-totp", { code: "123456" }));
      ctx.obs("no cookie, send-otp", await ctx.agent().post("/two-factor/send-otp", {}));
      ctx.obs(
        "no cookie, backup code",
        await ctx.agent().post("/two-factor/verify-backup-code", { code: "aaaaa-bbbbb" }),
      );
      const { b } = await challenged(ctx, email);
      const cookie = b.cookie("two_factor");
      const first = await b.post("/two-factor/verify-totp", { code: totp(key) });
      ctx.obs("first use", first, { pick: scrub });
      const again = ctx.agent();
      again.jar.set("better-auth.two_factor", cookie ?? "");
      const r = await again.post("/two-factor/verify-backup-code", { code: "aaaaa-bbbbb" });
      ctx.spec(
        r.status === 401 && r.body?.code === "INVALID_TWO_FACTOR_COOKIE",
        `used challenge refused (got ${r.status} ${r.body?.code})`,
      ); // REF≠SPEC
    },
  },
  {
    name: "mailed code: send, 5 wrong tries, too many, expired, a new code signs in",
    async run(ctx) {
      const { email } = await enrolled(ctx);
      const { b } = await challenged(ctx, email);
      ctx.obs("verify-otp before any send", await b.post("/two-factor/verify-otp", { code: "123456" }));
      let mark = ctx.mailMark();
      ctx.obs("send-otp", await b.post("/two-factor/send-otp", {}));
      const code = await ctx.mail(email, "twoFactorOtp", mark);
      ctx.fact("a 6-digit code was mailed", /^\d{6}$/.test(code ?? ""));
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 1; i <= 5; i++) ctx.obs(`wrong try ${i}`, await b.post("/two-factor/verify-otp", { code: wrong }));
      ctx.obs("right code after 5 wrong", await b.post("/two-factor/verify-otp", { code }));
      ctx.obs("then", await b.post("/two-factor/verify-otp", { code }));
      mark = ctx.mailMark();
      ctx.obs("send-otp with a body", await b.post("/two-factor/send-otp", { trustDevice: false }));
      const next = await ctx.mail(email, "twoFactorOtp", mark);
      const ok = await b.post("/two-factor/verify-otp", { code: next });
      ctx.obs("new code", ok, { pick: scrub });
      ctx.fact("new code: session cookie", cookies(ok).session_token);
      ctx.obs("get-session", await b.get("/get-session"), { pick: sess });
      const used = await b.post("/two-factor/verify-otp", { code: next });
      ctx.fact("signed in now: the used code", used.status);
      mark = ctx.mailMark();
      ctx.obs("send-otp signed in", await b.post("/two-factor/send-otp"));
      const own = await ctx.mail(email, "twoFactorOtp", mark);
      ctx.obs("verify-otp signed in", await b.post("/two-factor/verify-otp", { code: own }), { pick: scrub });
    },
  },
  {
    name: "backup codes: use once, regenerate, view (server)",
    async run(ctx) {
      const { a, email, backupCodes } = await enrolled(ctx);
      const { b } = await challenged(ctx, email);
      ctx.obs("unknown backup code", await b.post("/two-factor/verify-backup-code", { code: "aaaaa-bbbbb" }));
      ctx.obs(
        "disableSession",
        await b.post("/two-factor/verify-backup-code", { code: backupCodes[0], disableSession: true }),
        { pick: scrub, cookies: true },
      );
      const ok = await b.post("/two-factor/verify-backup-code", { code: backupCodes[1] });
      ctx.obs("backup code signs in", ok, { pick: scrub });
      ctx.fact("backup code: session cookie", cookies(ok).session_token);
      const { b: c } = await challenged(ctx, email);
      ctx.obs("the same code again", await c.post("/two-factor/verify-backup-code", { code: backupCodes[1] }));
      ctx.obs("the disableSession one again", await c.post("/two-factor/verify-backup-code", { code: backupCodes[0] }));
      ctx.obs("signed in: a backup code", await a.post("/two-factor/verify-backup-code", { code: backupCodes[2] }), {
        pick: scrub,
        cookies: true,
      });
      const session = await a.get("/get-session");
      const view = await ctx.server("viewBackupCodes", "/two-factor/view-backup-codes", {
        userId: session.body?.user?.id,
      });
      ctx.fact("view-backup-codes status", view.status);
      ctx.spec(
        Array.isArray(view.body?.backupCodes) &&
          view.body.backupCodes.length === 7 &&
          !view.body.backupCodes.includes(backupCodes[1]),
        `view-backup-codes: the 7 remaining codes (got ${JSON.stringify(view.body)})`,
      ); // REF≠SPEC
      ctx.obs(
        "view-backup-codes from a client",
        await a.post("/two-factor/view-backup-codes", { userId: session.body?.user?.id }),
        statusOnly,
      );
      ctx.obs(
        "view-backup-codes, unknown user",
        await ctx.server("viewBackupCodes", "/two-factor/view-backup-codes", { userId: "nobody" }),
      );
      ctx.obs(
        "regenerate, wrong password",
        await a.post("/two-factor/generate-backup-codes", { password: "wrong-password-1" }),
      );
      const g = await a.post("/two-factor/generate-backup-codes", { password: PW });
      ctx.obs("regenerate", g, { pick: codesShape });
      const { b: d } = await challenged(ctx, email);
      ctx.obs(
        "an old code after regenerating",
        await d.post("/two-factor/verify-backup-code", { code: backupCodes[3] }),
      );
      ctx.obs("a new code", await d.post("/two-factor/verify-backup-code", { code: g.body?.backupCodes?.[0] }), {
        pick: scrub,
      });
    },
  },
  {
    name: "trusted device: skips the challenge until disabled",
    async run(ctx) {
      const { a, email, key } = await enrolled(ctx);
      const { b } = await challenged(ctx, email);
      const v = await b.post("/two-factor/verify-totp", { code: totp(key), trustDevice: true });
      ctx.obs("verify with trustDevice", v, { pick: scrub });
      ctx.fact("trustDevice: cookies", cookies(v));
      ctx.obs("sign-out", await b.post("/sign-out", {}), statusOnly);
      const s = await b.post("/sign-in/email", { email, password: PW });
      ctx.obs("sign-in on the trusted browser", s, {
        pick: (x) => ({ twoFactorRedirect: x?.twoFactorRedirect ?? null, token: typeof x?.token }),
      });
      ctx.fact("trusted sign-in: session cookie", cookies(s).session_token);
      await b.post("/sign-out", {});
      const again = await b.post("/sign-in/email", { email, password: PW });
      ctx.spec(
        again.status === 200 && typeof again.body?.token === "string",
        `second trusted sign-in not challenged (got ${JSON.stringify(again.body)})`,
      ); // REF≠SPEC
      const other = ctx.agent();
      other.jar.set("better-auth.trust_device", b.cookie("trust_device") ?? "");
      const { email: otherEmail, key: otherKey } = await enrolled(ctx);
      void otherKey;
      ctx.obs(
        "another user's sign-in with this cookie",
        await other.post("/sign-in/email", { email: otherEmail, password: PW }),
      );
      ctx.obs("disable, wrong password", await a.post("/two-factor/disable", { password: "wrong-password-1" }));
      const d = await a.post("/two-factor/disable", { password: PW });
      ctx.obs("disable", d);
      ctx.fact("disable: session cookie", cookies(d).session_token);
      ctx.obs("get-session after disable", await a.get("/get-session", { query: { disableCookieCache: true } }), {
        pick: sess,
      });
      await b.post("/sign-out", {});
      ctx.obs("sign-in after disable", await b.post("/sign-in/email", { email, password: PW }), {
        pick: (x) => ({ twoFactorRedirect: x?.twoFactorRedirect ?? null, token: typeof x?.token }),
      });
      ctx.obs("get-totp-uri", await a.post("/two-factor/get-totp-uri", { password: PW }));
      ctx.obs("verify-totp", await a.post("/two-factor/verify-totp", { code: totp(key) }));
      ctx.obs("generate-backup-codes", await a.post("/two-factor/generate-backup-codes", { password: PW }));
      ctx.obs("verify-backup-code", await a.post("/two-factor/verify-backup-code", { code: "aaaaa-bbbbb" }));
      ctx.obs("send-otp", await a.post("/two-factor/send-otp", {}));
      ctx.obs("disable again", await a.post("/two-factor/disable", { password: PW }));
    },
  },
  {
    name: "rate limit: 3 per 10 s on each /two-factor/ path",
    opts: { rateLimit: true },
    async run(ctx) {
      const a = ctx.agent();
      a.headers["x-forwarded-for"] = "203.0.113.91";
      for (let i = 1; i <= 3; i++)
        ctx.obs(`verify-totp ${i}`, await a.post("/two-factor/verify-totp", { code: "123456" }));
      const fourth = await a.post("/two-factor/verify-totp", { code: "123456" });
      ctx.obs("verify-totp 4", fourth);
      const ra = fourth.headers.get("x-retry-after");
      ctx.fact("X-Retry-After: whole seconds within 10", ra !== null && /^\d+$/.test(ra) && Number(ra) <= 10);
      ctx.obs("another path is counted apart", await a.post("/two-factor/verify-otp", { code: "123456" }));
      // Not observed: "another client" by X-Forwarded-For. authd believes that header only from
      // AUTH_TRUSTED_PROXIES (docs/security.md), which the harness does not set.
    },
  },
];
