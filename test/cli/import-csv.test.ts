import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { ImportReport } from "../../src/services/import/run.ts";
import { describeEachDialect } from "../helpers/context.ts";
import { aspNetIdentityHash, djangoPbkdf2 } from "../helpers/foreign-hashes.ts";
import { useCliDatabase } from "../helpers/interchange.ts";
import { runCli } from "./run.ts";

// Issue 33: `authd import csv FILE --map … --hash-format …`, and `authd export --format csv`, which writes a
// cell a spreadsheet would run as a formula as plain text.

describeEachDialect("authd import csv / export --format csv", (dialect) => {
  const db = useCliDatabase(dialect, "authd-import-csv-");
  const tag = Math.random().toString(36).slice(2, 8);
  const email = (name: string) => `${name}.${tag}@example.com`;

  const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

  it("imports the mapped columns with Django hashes; quoted cells keep commas, quotes and line breaks", async () => {
    const rows = [
      ["User ID", "E-mail", "Verified", "Full Name", "Hash"],
      [
        `u1-${tag}`,
        email("django"),
        "yes",
        'Ada "the first", Lovelace\nof London',
        djangoPbkdf2("django-csv-password"),
      ],
      [
        `u2-${tag}`,
        email("formula"),
        "true",
        '=HYPERLINK("http://evil.example","click")',
        djangoPbkdf2("formula-password"),
      ],
      [`u3-${tag}`, email("at"), "false", "@SUM(1+1)", ""],
      [`u4-${tag}`, email("minus"), "1", "-2+3", ""],
    ];
    const file = join(db.dir, "users.csv");
    writeFileSync(file, `${rows.map((row) => row.map(quote).join(",")).join("\r\n")}\r\n`);
    const map = "id=User ID,email=E-mail,emailVerified=Verified,name=Full Name,password=Hash";
    const args = ["import", "csv", file, "--map", map, "--hash-format", "django", "--json"];
    const dry = await runCli(args, { env: db.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json<ImportReport>()).toMatchObject({
      records: 4,
      imported: 4,
      refused: 0,
      hashKinds: { "pbkdf2-sha256": 2, none: 2 },
    });
    expect((await runCli([...args, "--commit"], { env: db.env })).code).toBe(0);

    const user = await db.t.ctx.db
      .selectFrom("user")
      .selectAll()
      .where("email", "=", email("django"))
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ id: `u1-${tag}`, name: 'Ada "the first", Lovelace\nof London' });
    expect(Boolean(user.emailVerified)).toBe(true);
    expect(
      (await db.t.agent().post("/sign-in/email", { email: email("django"), password: "wrong-password-1" })).status,
    ).toBe(401);
    expect(
      (await db.t.agent().post("/sign-in/email", { email: email("django"), password: "django-csv-password" })).status,
    ).toBe(200);

    const exported = await runCli(["export", "--format", "csv"], { env: db.env });
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout;
    expect(lines.split("\n")[0]).toBe("id,email,emailVerified,name,image,username,role,createdAt,updatedAt,banned");
    expect(lines).toContain(`u2-${tag},${email("formula")},true,"'=HYPERLINK(""http://evil.example"",""click"")",`);
    expect(lines).toContain(`,'@SUM(1+1),`);
    expect(lines).toContain(`,'-2+3,`);
    expect(lines).toContain(`"Ada ""the first"", Lovelace\nof London"`);
    expect(lines).not.toMatch(/\$pbkdf2|pbkdf2_sha256/);
    expect(
      (
        await runCli(["export", "--format", "csv", "--include-secrets", "--output", join(db.dir, "x.csv")], {
          env: db.env,
        })
      ).code,
    ).toBe(2);
  });

  it("reads ASP.NET Identity hashes, and names a missing email column and a hash that is not the format said", async () => {
    const file = join(db.dir, "aspnet.csv");
    writeFileSync(
      file,
      `email,password\n${email("aspnet")},${aspNetIdentityHash("aspnet-password", 3)}\n${email("wrong")},not-a-hash\n`,
    );
    const result = await runCli(["import", "csv", file, "--hash-format", "aspnet-identity", "--commit", "--json"], {
      env: db.env,
    });
    expect(result.code, result.stderr).toBe(0);
    const report = result.json<ImportReport>();
    expect(report).toMatchObject({ imported: 1, refused: 1 });
    expect(report.problems[0]).toMatchObject({ record: "line 3", problem: expect.stringMatching(/^password hash:/) });
    expect(
      (await db.t.agent().post("/sign-in/email", { email: email("aspnet"), password: "aspnet-password" })).status,
    ).toBe(200);

    const noEmail = join(db.dir, "no-email.csv");
    writeFileSync(noEmail, "mail,name\nx@example.com,X\n");
    const refused = await runCli(["import", "csv", noEmail], { env: db.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^authd: .*no "email" column \(say which with --map email=COLUMN\)\n$/);
  });
});
