import type { AuthContext } from "../context.ts";
import { readJSONObject } from "../db/json-column.ts";
import {
  type AuditFilter,
  countAuditEvents,
  deleteAuditEventsBefore,
  findAuditEvent,
  listAuditEvents,
  listAuditEventsForward,
} from "../db/repositories/audit-events.ts";
import { findUserByEmail, listUserEmails } from "../db/repositories/users.ts";
import type { AuditEventRow } from "../db/schema.ts";
import type { AuditEventWire } from "../wire/audit.ts";
import { isoDate } from "../wire/common.ts";
import type { Page, PageRequest } from "./directory.ts";
import { normalizeEmail } from "./email-address.ts";

// Reading the audit log (the admin route, `authd audit`, the terminal UI, a user's own security activity)
// and pruning it after the retention period. Writing is recordSecurityEvent's (security-events.ts).

export type { AuditFilter };

const DAY_MS = 86_400_000;

export function toAuditEventWire(row: AuditEventRow): AuditEventWire {
  return {
    id: row.id,
    type: row.type,
    createdAt: isoDate(Number(row.createdAt)),
    actor: { type: row.actorType as AuditEventWire["actor"]["type"], id: row.actorId },
    subjectId: row.subjectId,
    organizationId: row.organizationId,
    ip: row.ip,
    userAgent: row.userAgent,
    outcome: row.outcome === "failure" ? "failure" : "success",
    data: readJSONObject(row.data) ?? {},
  };
}

/** "sign_in, user_banned" → ["sign_in", "user_banned"]: a list of event types as operators type it. */
export function parseTypeList(text: string | undefined): string[] | undefined {
  return text
    ?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** An event's details on one line (`name=value …`), for the CLI and the terminal UI. */
export function describeEventData(event: AuditEventWire): string {
  return Object.entries(event.data)
    .map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
}

/** An event as operators read it: the subject's current email beside its id (null once the user is gone). */
export type AuditEventListing = AuditEventWire & { subjectEmail: string | null };

/** The events with their subjects' current emails, for the CLI's and the terminal UI's tables. */
export async function withSubjectEmails(ctx: AuthContext, events: AuditEventWire[]): Promise<AuditEventListing[]> {
  const ids = [...new Set(events.map((event) => event.subjectId).filter((id): id is string => id !== null))];
  const emails = await listUserEmails(ctx.db, ids);
  return events.map((event) => ({
    ...event,
    subjectEmail: event.subjectId === null ? null : (emails.get(event.subjectId) ?? null),
  }));
}

/** "id <email>", the id alone once the user is gone, or null for an event about nobody. */
export function describeSubject(event: AuditEventListing): string | null {
  if (event.subjectId === null) return null;
  return event.subjectEmail ? `${event.subjectId} <${event.subjectEmail}>` : event.subjectId;
}

/** One page of events matching the filter, newest first, with the total. */
export async function listAuditLog(
  ctx: AuthContext,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Page<AuditEventWire>> {
  const [rows, total] = await Promise.all([listAuditEvents(ctx.db, filter, page), countAuditEvents(ctx.db, filter)]);
  return { items: rows.map(toAuditEventWire), total };
}

/** The user's own recent security activity: events about them, newest first. */
export async function listUserSecurityEvents(
  ctx: AuthContext,
  userId: string,
  page: PageRequest,
): Promise<Page<AuditEventWire>> {
  return listAuditLog(ctx, { subjectId: userId }, page);
}

/**
 * Follow the log: each new event matching the filter once, oldest first, polling every `intervalMs` until
 * `signal` aborts. Events that share a millisecond are told apart by id.
 */
export async function followAuditLog(
  ctx: AuthContext,
  filter: AuditFilter,
  /** Awaited when it returns a promise, so a slow writer holds the next event back. */
  onEvent: (event: AuditEventWire) => unknown,
  options: { intervalMs: number; signal: AbortSignal; since?: number },
): Promise<void> {
  let since = options.since ?? ctx.now();
  let seenAtSince = new Set<string>();
  // Without a start, only events recorded from now on: those already stored at this millisecond are skipped.
  if (options.since === undefined)
    for (const row of await listAuditEventsForward(ctx.db, { ...filter, since }, 500)) seenAtSince.add(row.id);
  while (!options.signal.aborted) {
    const rows = await listAuditEventsForward(ctx.db, { ...filter, since }, 500);
    for (const row of rows) {
      if (seenAtSince.has(row.id)) continue;
      const at = Number(row.createdAt);
      if (at > since) {
        since = at;
        seenAtSince = new Set();
      }
      seenAtSince.add(row.id);
      await onEvent(toAuditEventWire(row));
    }
    if (rows.length < 500)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs);
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        options.signal.addEventListener("abort", wake, { once: true });
      });
  }
}

/** Delete events older than the retention period (AUTH_AUDIT_RETENTION days); returns how many went. */
export function pruneAuditLog(ctx: AuthContext): Promise<number> {
  return deleteAuditEventsBefore(ctx.db, ctx.now() - ctx.config.audit.retentionDays * DAY_MS);
}

/** An operator's filters (the web console's form): the user by id or email, the rest as the log stores them. */
export interface AuditLogQuery {
  types?: string[];
  /** The user the events are about: an id, or the email address of a user who exists now. */
  user?: string;
  actorId?: string;
  outcome?: "success" | "failure";
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
}

/**
 * The query as a filter, or null when `user` is an address no user has now: the log keeps ids, not addresses,
 * so nothing can match (a deleted user's events are found by their id).
 */
export async function auditFilterOf(ctx: AuthContext, query: AuditLogQuery): Promise<AuditFilter | null> {
  const { user, ...rest } = query;
  if (user === undefined) return rest;
  if (!user.includes("@")) return { ...rest, subjectId: user };
  const found = await findUserByEmail(ctx.db, normalizeEmail(user));
  return found ? { ...rest, subjectId: found.id } : null;
}

/** One event with its subject's current email (all its data), or null when there is none by that id. */
export async function findAuditEventListing(ctx: AuthContext, eventId: string): Promise<AuditEventListing | null> {
  const row = await findAuditEvent(ctx.db, eventId);
  if (!row) return null;
  const [listed] = await withSubjectEmails(ctx, [toAuditEventWire(row)]);
  return listed;
}

/** How many events match the filter (an export's progress counts towards it). */
export function countAuditLog(ctx: AuthContext, filter: AuditFilter): Promise<number> {
  return countAuditEvents(ctx.db, filter);
}
