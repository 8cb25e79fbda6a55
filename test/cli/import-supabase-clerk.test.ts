import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base32Encode } from "../../src/crypto/totp.ts";
import type { ImportReport } from "../../src/services/import/run.ts";
import { describeEachDialect } from "../helpers/context.ts";
import { argon2Hash, bcryptHash } from "../helpers/foreign-hashes.ts";
import { useCliDatabase } from "../helpers/interchange.ts";
import { createPostgresDatabase, postgresUnavailableReason } from "../helpers/postgres.ts";
import { totp } from "../helpers/two-factor.ts";
import { runCli } from "./run.ts";

// Issue 33: the supabase and clerk readers. Supabase's auth.users and auth.identities are made here in the
// shape Supabase's own migrations give them (a Postgres database of their own), and as CSV exports of the
// same tables; Clerk's dashboard export is written as its CSV columns. Every user signs in with the
// password they had; linked providers and TOTP come along; what cannot be carried is refused by name.

const SUPABASE_SCHEMA = `
create schema auth;
create table auth.users (
  instance_id uuid, id uuid primary key, aud varchar(255), role varchar(255), email varchar(255),
  encrypted_password varchar(255), email_confirmed_at timestamptz, raw_app_meta_data jsonb,
  raw_user_meta_data jsonb, created_at timestamptz, updated_at timestamptz, phone text,
  banned_until timestamptz, deleted_at timestamptz, is_anonymous boolean not null default false,
  is_sso_user boolean not null default false);
create table auth.identities (
  provider_id text not null, user_id uuid not null references auth.users(id), identity_data jsonb not null,
  provider text not null, last_sign_in_at timestamptz, created_at timestamptz, updated_at timestamptz,
  email text, id uuid primary key default gen_random_uuid());`;

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csv = (rows: Record<string, unknown>[]) => {
  const columns = Object.keys(rows[0]);
  return [columns.join(","), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(","))].join("\n");
};

describeEachDialect("authd import supabase / clerk", (dialect) => {
  const db = useCliDatabase(dialect, "authd-import-supabase-");
  const tag = Math.random().toString(36).slice(2, 8);
  const email = (name: string) => `${name}.${tag}@example.com`;
  const uuid = (n: number) =>
    `${tag.padEnd(8, "0").replace(/[^0-9a-f]/g, "a")}-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const write = (name: string, content: string) => {
    const path = join(db.dir, name);
    writeFileSync(path, content);
    return path;
  };
  const commit = async (args: string[]) => {
    const result = await runCli(["import", ...args, "--commit", "--json"], { env: db.env });
    expect(result.code, result.stderr).toBe(0);
    return result.json<ImportReport>();
  };
  const signIn = (address: string, password: string) =>
    db.t.agent().post("/sign-in/email", { email: address, password });
  const userOf = (address: string) =>
    db.t.ctx.db.selectFrom("user").selectAll().where("email", "=", address).executeTakeFirst();
  const linked = async (provider: string, accountId: string) =>
    (
      await db.t.ctx.db
        .selectFrom("account")
        .innerJoin("user", "user.id", "account.userId")
        .select("user.email")
        .where("account.providerId", "=", provider)
        .where("account.accountId", "=", accountId)
        .executeTakeFirst()
    )?.email;

  const supabaseUsers = () => [
    {
      id: uuid(1),
      email: email("supa"),
      encrypted_password: bcryptHash("supabase-password", 10, "2a"),
      email_confirmed_at: "2024-01-02T03:04:05Z",
      raw_user_meta_data: { full_name: "Supa Base", avatar_url: "https://cdn.example.com/a.png" },
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-03T00:00:00Z",
      banned_until: null,
      deleted_at: null,
    },
    {
      id: uuid(2),
      email: email("supa-google"),
      encrypted_password: "",
      email_confirmed_at: "2024-01-02T03:04:05Z",
      raw_user_meta_data: { name: "Goo Gle" },
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      banned_until: "2999-01-01T00:00:00Z",
      deleted_at: null,
    },
    {
      id: uuid(3),
      email: email("supa-deleted"),
      encrypted_password: bcryptHash("x", 4),
      email_confirmed_at: null,
      raw_user_meta_data: {},
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      banned_until: null,
      deleted_at: "2024-02-01T00:00:00Z",
    },
    {
      id: uuid(4),
      email: null,
      encrypted_password: "",
      email_confirmed_at: null,
      raw_user_meta_data: {},
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      banned_until: null,
      deleted_at: null,
    },
  ];
  const supabaseIdentities = () => [
    { provider_id: uuid(1), user_id: uuid(1), identity_data: { sub: uuid(1) }, provider: "email" },
    { provider_id: `g-${tag}`, user_id: uuid(2), identity_data: { sub: `g-${tag}` }, provider: "google" },
  ];

  const expectSupabaseImported = async (report: ImportReport) => {
    expect(report).toMatchObject({ imported: 2, refused: 2, hashKinds: { bcrypt: 1, none: 1 } });
    expect(report.problems.map((p) => p.problem).sort()).toEqual([
      "deleted in Supabase (deleted_at is set)",
      "no email address (phone-only users are not carried over)",
    ]);
    expect((await signIn(email("supa"), "supabase-wrong")).status).toBe(401);
    expect((await signIn(email("supa"), "supabase-password")).status).toBe(200);
    const supa = await userOf(email("supa"));
    expect([supa?.name, supa?.image, Boolean(supa?.emailVerified)]).toEqual([
      "Supa Base",
      "https://cdn.example.com/a.png",
      true,
    ]);
    expect(await linked("google", `g-${tag}`)).toBe(email("supa-google"));
    expect(Boolean((await userOf(email("supa-google")))?.banned)).toBe(true);
  };

  describe("from the project's Postgres", () => {
    let source: { url: string; drop: () => Promise<void> } | undefined;
    let skip: string | null = null;
    beforeAll(async () => {
      skip = await postgresUnavailableReason();
      if (skip) return;
      source = await createPostgresDatabase(`supabase_${dialect}_${tag}`);
      const client = new pg.Client({ connectionString: source.url });
      await client.connect();
      try {
        await client.query(SUPABASE_SCHEMA);
        for (const user of supabaseUsers())
          await client.query(
            "insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data, created_at, updated_at, banned_until, deleted_at) values ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
            [
              user.id,
              user.email,
              user.encrypted_password,
              user.email_confirmed_at,
              user.raw_user_meta_data,
              user.created_at,
              user.updated_at,
              user.banned_until,
              user.deleted_at,
            ],
          );
        for (const identity of supabaseIdentities())
          await client.query(
            "insert into auth.identities (provider_id, user_id, identity_data, provider) values ($1,$2,$3,$4)",
            [identity.provider_id, identity.user_id, identity.identity_data, identity.provider],
          );
      } finally {
        await client.end();
      }
    });
    afterAll(async () => {
      await source?.drop();
    });

    it("reads auth.users and auth.identities: bcrypt passwords, social identities, bans; deleted and phone-only users refused", async () => {
      if (skip) return console.log(`skipped: ${skip}`);
      await expectSupabaseImported(await commit(["supabase", source?.url ?? ""]));
      // A second run changes nothing: (source, source id) is unique.
      expect(await commit(["supabase", source?.url ?? ""])).toMatchObject({ imported: 0 });
    });
  });

  it("reads the CSV exports of auth.users and auth.identities the same way", async () => {
    // Other ids than the Postgres test's: a source's ids are imported once.
    const csvId = (id: string) => id.replace("-4000-", "-4001-");
    const shifted = supabaseUsers().map((user) => ({
      ...user,
      id: csvId(user.id),
      email: user.email?.replace("@", "-csv@") ?? null,
    }));
    const users = write("supabase-users.csv", csv(shifted));
    const identities = write(
      "supabase-identities.csv",
      csv(
        supabaseIdentities().map((identity) => ({
          ...identity,
          user_id: csvId(identity.user_id),
          provider_id: `${identity.provider_id}-csv`,
        })),
      ),
    );
    const report = await commit(["supabase", users, identities]);
    expect(report).toMatchObject({ imported: 2, refused: 2 });
    expect((await signIn(email("supa").replace("@", "-csv@"), "supabase-password")).status).toBe(200);
    expect(await linked("google", `g-${tag}-csv`)).toBe(email("supa-google").replace("@", "-csv@"));
  });

  it("clerk: the dashboard export's bcrypt and argon2 digests and base32 TOTP secrets; unknown hashers refused", async () => {
    const key = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0x10, 0x80, 0x7f, 0x01, 0x02, 0x03, 0xa5, 0x5a]);
    const row = (fields: Record<string, string>) => ({
      id: "",
      first_name: "",
      last_name: "",
      username: "",
      primary_email_address: "",
      primary_phone_number: "",
      verified_email_addresses: "",
      unverified_email_addresses: "",
      verified_phone_numbers: "",
      unverified_phone_numbers: "",
      totp_secret: "",
      password_digest: "",
      password_hasher: "",
      ...fields,
    });
    const file = write(
      "clerk.csv",
      csv([
        row({
          id: `user_${tag}a`,
          first_name: "Cle",
          last_name: "Rk",
          username: `clerk${tag}`,
          primary_email_address: email("clerk"),
          verified_email_addresses: `${email("clerk")}|old.${tag}@example.com`,
          totp_secret: base32Encode(key),
          password_digest: bcryptHash("clerk-password", 10),
          password_hasher: "bcrypt",
        }),
        row({
          id: `user_${tag}b`,
          primary_email_address: email("clerk-argon"),
          unverified_email_addresses: email("clerk-argon"),
          password_digest: argon2Hash("argon-password"),
          password_hasher: "argon2id",
        }),
        row({
          id: `user_${tag}c`,
          primary_email_address: email("clerk-odd"),
          password_digest: "abc",
          password_hasher: "scrypt_werkzeug",
        }),
      ]),
    );
    const report = await commit(["clerk", file]);
    expect(report).toMatchObject({ imported: 2, refused: 1, hashKinds: { bcrypt: 1, argon2id: 1 } });
    expect(report.problems[0].problem).toMatch(/scrypt_werkzeug/);
    expect(Boolean((await userOf(email("clerk")))?.emailVerified)).toBe(true);
    expect(Boolean((await userOf(email("clerk-argon")))?.emailVerified)).toBe(false);
    expect((await signIn(email("clerk-argon"), "argon-password")).status).toBe(200);
    const agent = db.t.agent();
    const first = await agent.post("/sign-in/email", { email: email("clerk"), password: "clerk-password" });
    expect(first.body).toEqual({ twoFactorRedirect: true });
    // The code an authenticator app holding Clerk's base32 secret shows now.
    const verified = await agent.post("/two-factor/verify-totp", { code: totp(key, Date.now()) });
    expect(verified.status, verified.text).toBe(200);
    expect((await userOf(email("clerk")))?.name).toBe("Cle Rk");
  });
});
