import * as z from "zod";
import { actorFor, assertAdminPermission } from "../../services/admin.ts";
import { listAuditLog, listUserSecurityEvents, parseTypeList } from "../../services/audit-log.ts";
import { AuditPageSchema } from "../../wire/audit.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";

// authd's own audit routes (not Better Auth's): the whole log for administrators and server calls, and a
// user's own recent security activity.

const tags = ["Audit"];
const count = z.coerce.number().int().min(0);
const dateOrMs = z.union([z.coerce.number().int().min(0), z.iso.datetime().transform((text) => Date.parse(text))]);

const AuditQuery = z.object({
  type: singleLine().optional().describe("event types, comma-separated"),
  userId: singleLine().optional().describe("the user the events are about"),
  actorId: singleLine().optional(),
  actorType: z.enum(["user", "admin", "server", "cli", "anonymous"]).optional(),
  organizationId: singleLine().optional(),
  outcome: z.enum(["success", "failure"]).optional(),
  since: dateOrMs.optional().describe("ISO date or epoch ms, inclusive"),
  until: dateOrMs.optional().describe("ISO date or epoch ms, exclusive"),
  limit: count.min(1).max(1000).optional(),
  offset: count.optional(),
});

export const adminAuditLog = defineRoute({
  method: "GET",
  path: "/admin/audit-log",
  summary: "The audit log with filters and paging, newest first (admin or server; authd's own)",
  description: "Requires the audit:list admin permission. Defaults: limit 100, offset 0.",
  tags,
  auth: "session-or-server",
  query: AuditQuery,
  response: AuditPageSchema,
  handler: async ({ ctx, query, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { audit: ["list"] });
    const { type, userId, limit, offset, ...rest } = query;
    const types = parseTypeList(type);
    const page = await listAuditLog(
      ctx,
      { ...rest, types, subjectId: userId },
      { limit: limit ?? 100, offset: offset ?? 0 },
    );
    return { events: page.items, total: page.total };
  },
});

export const listSecurityEvents = defineRoute({
  method: "GET",
  path: "/list-security-events",
  summary: "The caller's own recent security events, newest first (authd's own)",
  tags,
  auth: "session",
  query: z.object({ limit: count.min(1).max(100).optional(), offset: count.optional() }),
  response: AuditPageSchema,
  handler: async ({ ctx, query, session }) => {
    const page = await listUserSecurityEvents(ctx, session.user.id, {
      limit: query.limit ?? 20,
      offset: query.offset ?? 0,
    });
    return { events: page.items, total: page.total };
  },
});

export const auditRoutes = [adminAuditLog, listSecurityEvents];
