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
