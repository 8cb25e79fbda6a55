import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ExportProgress, writeAuditExport } from "../../src/cli/commands/audit-export.ts";
import { AUDIT_CSV_COLUMNS } from "../../src/services/audit-export.ts";
import type { AuditEventWire } from "../../src/wire/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { runCli } from "./run.ts";

// authd audit export: the filtered log as CSV or JSON Lines, to standard output or a file only its owner
// reads, with the same filters as authd audit; progress for an export longer than one batch.

describeEachDialect("authd audit export", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
    dir = mkdtempSync(join(tmpdir(), "authd-audit-export-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it("writes one user's events as CSV to standard output, formulas made inert", async () => {
    const erin = await signUp(t, { email: "erin.export@example.com" });
    t.clock.advance(10);
    const hostile = t.agent();
    hostile.headers["user-agent"] = '=HYPERLINK("https://evil.example","open")';
    await hostile.post("/sign-in/email", { email: erin.email, password: "not-erins-password" });
    await signUp(t);

    const result = await runCli(["audit", "export", "--format", "csv", "--user", erin.email], { env });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(4); // header, the failed sign-in, the sign-up, and the empty rest after the last CRLF
    expect(lines[1]).toContain("sign_in,failure");
    expect(lines[1]).toContain('"\'=HYPERLINK(""https://evil.example"",""open"")"');
    expect(lines[2]).toContain(`sign_up,success,user,${erin.user.id},${erin.user.id},erin.export@example.com`);
    expect(lines[3]).toBe("");
  });

  it("writes JSON Lines to a file only its owner can read, with the same filters as authd audit", async () => {
    const out = join(dir, "sign-ins.jsonl");
    const args = ["--type", "sign_in", "--outcome", "failure"];
    const result = await runCli(["audit", "export", ...args, "--out", out, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const listed = await runCli(["audit", "--json", ...args], { env });
    const page = listed.json<{ events: AuditEventWire[]; total: number }>();
    expect(result.json()).toEqual({ output: out, format: "jsonl", events: page.total });
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual(page.events);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it("reads a deleted user's events by id, and refuses a format it does not know", async () => {
    const gone = await signUp(t);
    await t.ctx.db.deleteFrom("user").where("id", "=", gone.user.id).execute();
    const result = await runCli(["audit", "export", "--user", gone.user.id], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: "sign_up", subjectId: gone.user.id });
    const bad = await runCli(["audit", "export", "--format", "xlsx"], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--format");
    const nobody = await runCli(["audit", "export", "--user", "nobody@example.com"], { env });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("nobody@example.com");
  });

  it("reports progress a batch at a time against the number of events the filter matches", async () => {
    const rows = Array.from({ length: 1200 }, (_, n) => ({
      id: `bulk-${String(n).padStart(5, "0")}`,
      type: "api_key_created",
      createdAt: t.clock.now + (n % 7),
      actorType: "cli",
      outcome: "success",
      data: JSON.stringify({ keyId: `key-${n}` }),
      fannedOut: true,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.ctx.db
        .insertInto("auditEvent")
        .values(rows.slice(i, i + 200))
        .execute();
    const seen: string[] = [];
    const progress: ExportProgress = {
      start: (total) => seen.push(`start ${total}`),
      step: (written, total) => seen.push(`${written}/${total}`),
      done: (written) => seen.push(`done ${written}`),
    };
    const chunks: string[] = [];
    const count = await writeAuditExport(
      t.ctx,
      { types: ["api_key_created"] },
      "jsonl",
      {
        write: async (chunk) => {
          chunks.push(chunk);
        },
      },
      progress,
    );
    expect(count).toBe(1200);
    expect(seen).toEqual(["start 1200", "500/1200", "1000/1200", "1200/1200", "done 1200"]);
    const ids = chunks
      .join("")
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as AuditEventWire).id);
    expect(new Set(ids).size).toBe(1200);
  });
});
