import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

// An audit event as the API, the command line, the terminal UI and webhooks show it (docs/events.md).

export const AuditEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: IsoDateSchema,
  actor: z.object({
    type: z.enum(["user", "admin", "server", "cli", "anonymous"]),
    id: z.string().nullable(),
  }),
  /** The user the event is about. */
  subjectId: z.string().nullable(),
  organizationId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  outcome: z.enum(["success", "failure"]),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEventWire = z.output<typeof AuditEventSchema>;

export const AuditPageSchema = z.object({ events: z.array(AuditEventSchema), total: z.number() });
