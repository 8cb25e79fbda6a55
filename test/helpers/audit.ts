import { expect } from "vitest";
import type { AuthContext } from "../../src/context.ts";
import type { AuditEventRow } from "../../src/db/schema.ts";

// The audit log as a test reads it: the rows at rest, and a scan for secrets.

export async function auditRows(ctx: AuthContext): Promise<AuditEventRow[]> {
  return ctx.db.selectFrom("auditEvent").selectAll().orderBy("createdAt", "asc").orderBy("id", "asc").execute();
}

export async function eventsOfType(ctx: AuthContext, type: string): Promise<AuditEventRow[]> {
  return (await auditRows(ctx)).filter((row) => row.type === type);
}

/** No stored event, in any column, contains any of these values. */
export async function expectNoSecretsInAudit(ctx: AuthContext, secrets: (string | null | undefined)[]): Promise<void> {
  const text = JSON.stringify(await auditRows(ctx));
  for (const secret of secrets) {
    if (!secret) continue;
    expect(text.includes(secret), `a secret (${secret.slice(0, 4)}…) was recorded in the audit log`).toBe(false);
  }
}

/**
 * Every security line the daemon logged (origin_refused aside: log only) has its audit row: same type,
 * outcome, subject, actor, address and user agent. Background events (throttled accounts) are waited for.
 */
export async function expectAuditMatchesLog(ctx: AuthContext, lines: string[]): Promise<void> {
  await ctx.settle();
  const rows = await auditRows(ctx);
  for (const raw of lines) {
    const entry = JSON.parse(raw) as Record<string, unknown>;
    const message = String(entry.message ?? "");
    if (!message.startsWith("security.") || message === "security.origin_refused") continue;
    const type = message.slice("security.".length);
    const found = rows.some(
      (row) =>
        row.type === type &&
        row.outcome === entry.outcome &&
        row.subjectId === entry.userId &&
        row.actorType === entry.actorType &&
        row.actorId === entry.actorId &&
        row.ip === entry.ip &&
        row.userAgent === entry.userAgent,
    );
    expect(found, `no audit row for ${raw}`).toBe(true);
  }
}
