import * as z from "zod";
import { actorFrom } from "../../../services/organizations/actor.ts";
import * as service from "../../../services/organizations/teams.ts";
import { TeamMemberSchema, TeamSchema } from "../../../wire/organization.ts";
import { coercedSingleLine, singleLine } from "../../fields.ts";
import { asActor } from "../../organization-actor.ts";
import { defineRoute } from "../../route.ts";
import { tags } from "./shared.ts";

const teamTags = [...tags, "Team"];
const MessageSchema = z.object({ message: z.string() });
const rosterBody = z.object({ teamId: singleLine(), userId: coercedSingleLine() });

export const createTeamRoute = defineRoute({
  method: "POST",
  path: "/organization/create-team",
  summary: "Create a team in an organization (the active one by default)",
  tags: teamTags,
  auth: "session-or-server",
  body: z.object({ name: singleLine().min(1), organizationId: singleLine().optional() }),
  response: TeamSchema,
  handler: ({ ctx, body, session }) =>
    service.createTeam(ctx, session ? actorFrom(session.user, session.session) : null, body),
});

export const listTeamsRoute = defineRoute({
  method: "GET",
  path: "/organization/list-teams",
  summary: "Teams of an organization, for its members",
  tags: teamTags,
  auth: "session",
  query: z.object({ organizationId: singleLine().optional() }),
  response: z.array(TeamSchema),
  handler: ({ c, ctx, query, session }) =>
    asActor(c, ctx, session, (actor) => service.listTeams(ctx, actor, query.organizationId)),
});

export const updateTeamRoute = defineRoute({
  method: "POST",
  path: "/organization/update-team",
  summary: "Rename a team",
  tags: teamTags,
  auth: "session",
  body: z.object({
    teamId: singleLine(),
    data: z.object({ name: singleLine().min(1).optional(), organizationId: singleLine().optional() }),
  }),
  response: TeamSchema,
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session, (actor) => service.updateTeam(ctx, actor, body)),
});

export const removeTeamRoute = defineRoute({
  method: "POST",
  path: "/organization/remove-team",
  summary: "Remove a team",
  tags: teamTags,
  auth: "session-or-server",
  body: z.object({ teamId: singleLine(), organizationId: singleLine().optional() }),
  response: MessageSchema,
  handler: ({ ctx, body, session }) =>
    service.removeTeam(ctx, session ? actorFrom(session.user, session.session) : null, body),
});

export const setActiveTeamRoute = defineRoute({
  method: "POST",
  path: "/organization/set-active-team",
  summary: "Make one of the caller's teams the session's active team (null clears it)",
  tags: teamTags,
  auth: "session",
  body: z.object({ teamId: singleLine().nullable().optional() }),
  response: TeamSchema.nullable(),
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.setActiveTeam(ctx, actor, body.teamId)),
});

export const listUserTeamsRoute = defineRoute({
  method: "GET",
  path: "/organization/list-user-teams",
  summary: "The teams the caller belongs to",
  tags: teamTags,
  auth: "session",
  response: z.array(TeamSchema),
  handler: ({ c, ctx, session }) => asActor(c, ctx, session, (actor) => service.listUserTeams(ctx, actor)),
});

export const listTeamMembersRoute = defineRoute({
  method: "GET",
  path: "/organization/list-team-members",
  summary: "Members of a team (the active one by default), for its members",
  tags: teamTags,
  auth: "session",
  refusals: { USER_IS_NOT_A_MEMBER_OF_TEAM: "TEAM_LIST_NOT_A_MEMBER" },
  query: z.object({ teamId: singleLine().optional() }),
  response: z.array(TeamMemberSchema),
  handler: ({ c, ctx, query, session }) =>
    asActor(c, ctx, session, (actor) => service.listTeamMembers(ctx, actor, query.teamId)),
});

export const addTeamMemberRoute = defineRoute({
  method: "POST",
  path: "/organization/add-team-member",
  summary: "Add a member of the active organization to one of its teams",
  tags: teamTags,
  auth: "session",
  body: rosterBody,
  response: TeamMemberSchema,
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session, (actor) => service.addTeamMember(ctx, actor, body)),
});

export const removeTeamMemberRoute = defineRoute({
  method: "POST",
  path: "/organization/remove-team-member",
  summary: "Remove a member from a team",
  tags: teamTags,
  auth: "session",
  body: rosterBody,
  response: MessageSchema,
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.removeTeamMember(ctx, actor, body)),
});

export const teamRoutes = [
  createTeamRoute,
  listTeamsRoute,
  updateTeamRoute,
  removeTeamRoute,
  setActiveTeamRoute,
  listUserTeamsRoute,
  listTeamMembersRoute,
  addTeamMemberRoute,
  removeTeamMemberRoute,
];
