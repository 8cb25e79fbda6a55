import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import * as service from "../../../services/organizations/invitations.ts";
import { defineRoute } from "../../route.ts";
import { asActor, tags } from "./shared.ts";

const invitationIdBody = z.object({ invitationId: z.string() });

export const inviteMemberRoute = defineRoute({
  method: "POST",
  path: "/organization/invite-member",
  summary: "Invite someone by email; the invitation mail carries the accept link",
  tags,
  auth: "session",
  body: z.object({
    email: z.email(),
    role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    organizationId: z.string().optional(),
    resend: z.boolean().optional(),
    teamId: z.union([z.string(), z.array(z.string())]).optional(),
  }),
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session!, (actor) => service.inviteMember(ctx, actor, body)),
});

export const acceptInvitationRoute = defineRoute({
  method: "POST",
  path: "/organization/accept-invitation",
  summary: "Accept an invitation addressed to the caller; the organization becomes active",
  tags,
  auth: "session",
  body: invitationIdBody,
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session!, (actor) => service.acceptInvitation(ctx, actor, body.invitationId)),
});

export const rejectInvitationRoute = defineRoute({
  method: "POST",
  path: "/organization/reject-invitation",
  summary: "Reject an invitation addressed to the caller",
  tags,
  auth: "session",
  body: invitationIdBody,
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session!, (actor) => service.rejectInvitation(ctx, actor, body.invitationId)),
});

export const cancelInvitationRoute = defineRoute({
  method: "POST",
  path: "/organization/cancel-invitation",
  summary: "Cancel a pending invitation (needs the invitation cancel permission)",
  tags,
  auth: "session",
  body: invitationIdBody,
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session!, (actor) => service.cancelInvitation(ctx, actor, body.invitationId)),
});

export const getInvitationRoute = defineRoute({
  method: "GET",
  path: "/organization/get-invitation",
  summary: "A pending invitation, for its recipient only",
  tags,
  auth: "optional-session",
  query: z.object({ id: z.string() }),
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
  query: z.object({ organizationId: z.string().optional() }),
  handler: ({ c, ctx, query, session }) => asActor(c, ctx, session!, (actor) => service.listInvitations(ctx, actor, query.organizationId)),
});

export const listUserInvitationsRoute = defineRoute({
  method: "GET",
  path: "/organization/list-user-invitations",
  summary: "Invitations addressed to the caller (or, from the server, to an email)",
  tags,
  auth: "optional-session",
  query: z.object({ email: z.string().optional() }),
  handler: ({ ctx, query, session, isServer }) => {
    if (query.email && !isServer) throw new AuthError("EMAIL_QUERY_SERVER_ONLY");
    const email = session?.user.email ?? query.email;
    if (!email) throw new AuthError("MISSING_SESSION_OR_EMAIL");
    return service.listUserInvitations(ctx, email);
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
