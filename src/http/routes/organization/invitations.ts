import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import * as service from "../../../services/organizations/invitations.ts";
import { InvitationDetailsSchema, InvitationSchema, MemberSchema } from "../../../wire/organization.ts";
import { singleLine } from "../../fields.ts";
import { asActor } from "../../organization-actor.ts";
import { defineRoute } from "../../route.ts";
import { tags } from "./shared.ts";

const invitationIdBody = z.object({ invitationId: singleLine() });

export const inviteMemberRoute = defineRoute({
  method: "POST",
  path: "/organization/invite-member",
  summary: "Invite someone by email; the invitation mail carries the accept link",
  tags,
  auth: "session",
  body: z.object({
    email: z.email(),
    role: z.union([singleLine().min(1), z.array(singleLine().min(1)).min(1)]),
    organizationId: singleLine().optional(),
    resend: z.boolean().optional(),
    teamId: z.union([singleLine(), z.array(singleLine())]).optional(),
  }),
  response: InvitationSchema,
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session, (actor) => service.inviteMember(ctx, actor, body)),
});

export const acceptInvitationRoute = defineRoute({
  method: "POST",
  path: "/organization/accept-invitation",
  summary: "Accept an invitation addressed to the caller; the organization becomes active",
  tags,
  auth: "session",
  body: invitationIdBody,
  response: z.object({ invitation: InvitationSchema, member: MemberSchema }),
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.acceptInvitation(ctx, actor, body.invitationId)),
});

export const rejectInvitationRoute = defineRoute({
  method: "POST",
  path: "/organization/reject-invitation",
  summary: "Reject an invitation addressed to the caller",
  tags,
  auth: "session",
  body: invitationIdBody,
  response: z.object({ invitation: InvitationSchema, member: z.null() }),
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.rejectInvitation(ctx, actor, body.invitationId)),
});

export const cancelInvitationRoute = defineRoute({
  method: "POST",
  path: "/organization/cancel-invitation",
  summary: "Cancel a pending invitation (needs the invitation cancel permission)",
  tags,
  auth: "session",
  body: invitationIdBody,
  response: InvitationSchema,
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.cancelInvitation(ctx, actor, body.invitationId)),
});

export const getInvitationRoute = defineRoute({
  method: "GET",
  path: "/organization/get-invitation",
  summary: "A pending invitation, for its recipient only",
  tags,
  auth: "optional-session",
  query: z.object({ id: singleLine() }),
  // The spec words a missing id as any invalid query: 400 VALIDATION_ERROR "Invalid query parameters".
  namesMissingFields: false,
  response: InvitationDetailsSchema,
  handler: ({ c, ctx, query, session }) => {
    if (!session) throw new AuthError("NOT_AUTHENTICATED");
    return asActor(c, ctx, session, (actor) => service.getInvitation(ctx, actor, query.id));
  },
});

export const listInvitationsRoute = defineRoute({
  method: "GET",
  path: "/organization/list-invitations",
  summary: "Invitations of an organization (the active one by default), for its members",
  tags,
  auth: "session",
  query: z.object({ organizationId: singleLine().optional() }),
  response: z.array(InvitationSchema),
  handler: ({ c, ctx, query, session }) =>
    asActor(c, ctx, session, (actor) => service.listInvitations(ctx, actor, query.organizationId)),
});

export const listUserInvitationsRoute = defineRoute({
  method: "GET",
  path: "/organization/list-user-invitations",
  summary: "Invitations addressed to the caller (or, from the server, to an email)",
  tags,
  auth: "optional-session",
  query: z.object({ email: singleLine().optional() }),
  response: z.array(InvitationSchema),
  handler: ({ ctx, query, session, isServer }) => {
    if (query.email && !isServer) throw new AuthError("EMAIL_QUERY_SERVER_ONLY");
    if (session) return service.listUserInvitations(ctx, { user: session.user });
    if (!query.email) throw new AuthError("MISSING_SESSION_OR_EMAIL");
    return service.listUserInvitations(ctx, { email: query.email });
  },
});

export const invitationRoutes = [
  inviteMemberRoute,
  acceptInvitationRoute,
  rejectInvitationRoute,
  cancelInvitationRoute,
  getInvitationRoute,
  listInvitationsRoute,
  listUserInvitationsRoute,
];
