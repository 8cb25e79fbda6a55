import { afterAll, beforeAll, expect, it } from "vitest";
import type { NewAuditEventRow } from "../../src/db/schema.ts";
import { AUDIT_CSV_COLUMNS, exportAuditLog } from "../../src/services/audit-export.ts";
import type { AuditEventWire } from "../../src/wire/audit.ts";
import { type AdminData, createAdminData } from "../../ui/data.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// What the web console's audit screen reads through AdminData: the filtered log (several types, a user by id
// or address, an actor, an outcome, a time range, pages), one event, and the export as CSV and JSON Lines
// streamed a batch at a time, with what an attacker stores in the log (formulas, quotes, HTML) left inert.

const HOUR = 3_600_000;

describeEachDialect("audit log for the console: filters, detail, export", (dialect) => {
  let t: TestContext;
  let data: AdminData;
  let counter = 0;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    data = createAdminData(t.ctx);
  });
  afterAll(() => t.close());

  /** A row as recordSecurityEvent would write it, with the values a test needs (some no request can send). */
  async function insertEvent(fields: Partial<NewAuditEventRow>): Promise<string> {
    counter += 1;
    const id = fields.id ?? `evt-${String(counter).padStart(4, "0")}`;
    await t.ctx.db
      .insertInto("auditEvent")
      .values({
        id,
        type: "sign_in",
        createdAt: t.clock.now,
        actorType: "anonymous",
        actorId: null,
        subjectId: null,
        organizationId: null,
        ip: null,
        userAgent: null,
        outcome: "success",
        data: "{}",
        fannedOut: true,
        ...fields,
      })
      .execute();
    return id;
  }

  it("filters by several types, a user by id or address, an actor, an outcome and a time range, in pages", async () => {
    const alice = await signUp(t, { email: "alice.console@example.com" });
    t.clock.advance(1000);
    await t.agent().post("/sign-in/email", { email: alice.email, password: "not-her-password" });
    t.clock.advance(1000);
    const admin = await signUp(t);
    t.clock.advance(1000);
    await insertEvent({ type: "user_banned", subjectId: alice.user.id, actorType: "admin", actorId: admin.user.id });
    t.clock.advance(1000);

    const byAddress = await data.filterAuditLog({ user: "Alice.Console@Example.com" }, { limit: 10, offset: 0 });
    expect(byAddress.unknownUser).toBe(false);
    expect(byAddress.items.map((e) => `${e.type}:${e.outcome}`)).toEqual([
      "user_banned:success",
      "sign_in:failure",
      "sign_up:success",
    ]);
    expect(byAddress.items[0].subjectEmail).toBe("alice.console@example.com");
    const byId = await data.filterAuditLog({ user: alice.user.id }, { limit: 10, offset: 0 });
    expect(byId.items.map((e) => e.id)).toEqual(byAddress.items.map((e) => e.id));

    const types = await data.filterAuditLog(
      { user: alice.user.id, types: ["sign_up", "user_banned"] },
      { limit: 10, offset: 0 },
    );
    expect(types.items.map((e) => e.type)).toEqual(["user_banned", "sign_up"]);
    const failures = await data.filterAuditLog({ user: alice.user.id, outcome: "failure" }, { limit: 10, offset: 0 });
    expect(failures.items.map((e) => e.type)).toEqual(["sign_in"]);
    const byActor = await data.filterAuditLog({ actorId: admin.user.id }, { limit: 10, offset: 0 });
    expect(byActor.items.map((e) => e.type)).toEqual(["user_banned", "sign_up"]);

    const signUpAt = Date.parse(byAddress.items[2].createdAt);
    const window = await data.filterAuditLog(
      { user: alice.user.id, since: signUpAt + 1, until: signUpAt + 1001 },
      { limit: 10, offset: 0 },
    );
    expect(window.items.map((e) => e.type)).toEqual(["sign_in"]);

    const second = await data.filterAuditLog({ user: alice.user.id }, { limit: 1, offset: 1 });
    expect(second).toMatchObject({ total: 3, items: [{ id: byAddress.items[1].id }] });
  });

  it("says so when the user filter is an address nobody has, and still finds a deleted user's events by id", async () => {
    const nobody = await data.filterAuditLog({ user: "nobody@example.com" }, { limit: 10, offset: 0 });
    expect(nobody).toEqual({ items: [], total: 0, unknownUser: true });
    const gone = await signUp(t);
    await t.ctx.db.deleteFrom("user").where("id", "=", gone.user.id).execute();
    const kept = await data.filterAuditLog({ user: gone.user.id }, { limit: 10, offset: 0 });
    expect(kept).toMatchObject({ total: 1, unknownUser: false, items: [{ type: "sign_up", subjectEmail: null }] });
  });

  it("describes one event with all its data, and nothing for an unknown id", async () => {
    const bob = await signUp(t);
    const id = await insertEvent({
      type: "user_updated",
      subjectId: bob.user.id,
      ip: "203.0.113.9",
      userAgent: "<script>alert(1)</script>",
      data: JSON.stringify({ fields: ["name", "<img src=x onerror=alert(1)>"] }),
    });
    const event = await data.describeAuditEvent(id);
    expect(event).toMatchObject({
      id,
      type: "user_updated",
      subjectId: bob.user.id,
      subjectEmail: bob.email,
      ip: "203.0.113.9",
      userAgent: "<script>alert(1)</script>",
      data: { fields: ["name", "<img src=x onerror=alert(1)>"] },
    });
    expect(await data.describeAuditEvent("no-such-event")).toBeNull();
  });

  async function collect(chunks: AsyncIterable<string>): Promise<string> {
    let text = "";
    for await (const chunk of chunks) text += chunk;
    return text;
  }

  it("exports the filtered log as JSON Lines, the same events in the same order as the listing", async () => {
    const carol = await signUp(t);
    for (let n = 0; n < 3; n += 1) await t.agent().post("/sign-in/email", { email: carol.email, password: "wrong-1" });
    const listed = await data.filterAuditLog({ user: carol.user.id }, { limit: 100, offset: 0 });
    const text = await collect(data.exportAuditLog({ user: carol.email }, "jsonl"));
    expect(text.endsWith("\n")).toBe(true);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditEventWire);
    expect(lines).toEqual(listed.items.map(({ subjectEmail: _, ...event }) => event));
    expect(await collect(data.exportAuditLog({ user: "nobody@example.com" }, "jsonl"))).toBe("");
  });

  it("walks the whole log in batches without losing or repeating events that share a millisecond", async () => {
    t.clock.advance(HOUR);
    const at = t.clock.now;
    const ids = [];
    for (let n = 0; n < 7; n += 1)
      ids.push(await insertEvent({ type: "role_changed", createdAt: n < 5 ? at : at + 1 }));
    const progress: number[] = [];
    const text = await collect(
      exportAuditLog(t.ctx, { types: ["role_changed"] }, "jsonl", {
        batchSize: 2,
        onProgress: (n) => progress.push(n),
      }),
    );
    const exported = text
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as AuditEventWire).id);
    const listed = await data.filterAuditLog({ types: ["role_changed"] }, { limit: 100, offset: 0 });
    expect(exported).toEqual(listed.items.map((e) => e.id));
    expect([...exported].sort()).toEqual([...ids].sort());
    expect(progress).toEqual([2, 4, 6, 7]);
  });

  it("exports CSV with a header, quoted cells and formulas made inert", async () => {
    const dave = await signUp(t, { email: "dave.csv@example.com" });
    const hostile = [
      '=HYPERLINK("http://evil.example","click")',
      "+1+1",
      "-2+3",
      "@SUM(A1:A2)",
      "\tindented",
      "\rreturned",
      'Mozilla/5.0 (X11, Linux) "quoted", with comma\nand a line',
    ];
    for (const userAgent of hostile) await insertEvent({ type: "sign_out", subjectId: dave.user.id, userAgent });
    const text = await collect(data.exportAuditLog({ user: dave.user.id, types: ["sign_out"] }, "csv"));
    const [header] = text.split("\r\n");
    expect(header).toBe(AUDIT_CSV_COLUMNS.join(","));
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    const column = (name: string) => AUDIT_CSV_COLUMNS.indexOf(name as (typeof AUDIT_CSV_COLUMNS)[number]);
    const agents = rows.slice(1).map((row) => row[column("userAgent")]);
    expect(agents).toEqual([...hostile].reverse().map((agent) => (/^[=+\-@\t\r]/.test(agent) ? `'${agent}` : agent)));
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(AUDIT_CSV_COLUMNS.length);
      expect(row[column("subjectEmail")]).toBe("dave.csv@example.com");
      expect(JSON.parse(row[column("data")])).toEqual({});
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(await collect(data.exportAuditLog({ user: "nobody@example.com" }, "csv"))).toBe(`${header}\r\n`);
  });
});

/** RFC 4180 parsing for the test: quoted cells with doubled quotes and line breaks, records ending CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else cell += ch;
  }
  return rows;
}
