import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import * as service from "../../../services/organizations/organizations.ts";
import { StatusSchema } from "../../../wire/common.ts";
import {
  FullOrganizationSchema,
  OrganizationSchema,
  OrganizationWithMembersSchema,
} from "../../../wire/organization.ts";
import { jsonObject, singleLine } from "../../fields.ts";
import { asActor } from "../../organization-actor.ts";
import { defineRoute } from "../../route.ts";
import { serverActor, tags } from "./shared.ts";

const metadata = jsonObject();

export const createOrganizationRoute = defineRoute({
  method: "POST",
  path: "/organization/create",
  summary: "Create an organization; the caller (or the server-named userId) becomes its owner",
  tags,
  auth: "session-or-server",
  body: z.object({
    name: singleLine().min(1),
    slug: singleLine().min(1),
    logo: singleLine().optional(),
    metadata: metadata.optional(),
    userId: singleLine().optional(),
    keepCurrentActiveOrganization: z.boolean().optional(),
  }),
  response: OrganizationWithMembersSchema,
  handler: async ({ c, ctx, body, session }) => {
    if (session) return asActor(c, ctx, session, (actor) => service.createOrganization(ctx, actor, body));
    return service.createOrganization(ctx, await serverActor(ctx, body.userId), {
      ...body,
      keepCurrentActiveOrganization: true,
    });
  },
});

export const checkSlugRoute = defineRoute({
  method: "POST",
  path: "/organization/check-slug",
  summary: "Whether a slug is free",
  tags,
  auth: "session",
  body: z.object({ slug: singleLine() }),
  response: StatusSchema,
  handler: async ({ ctx, body }) => {
    if (!(await service.isSlugFree(ctx, body.slug))) throw new AuthError("SLUG_IS_TAKEN");
    return { status: true };
  },
});

export const listOrganizationsRoute = defineRoute({
  method: "GET",
  path: "/organization/list",
  summary: "The organizations the caller belongs to",
  tags,
  auth: "session",
  response: z.array(OrganizationSchema),
  handler: ({ ctx, session }) => service.listOrganizations(ctx, session.user.id),
});

export const getFullOrganizationRoute = defineRoute({
  method: "GET",
  path: "/organization/get-full-organization",
  summary: "An organization (the active one by default) with its members, invitations and teams",
  tags,
  auth: "session",
  refusals: { USER_IS_NOT_A_MEMBER: "ORGANIZATION_ACCESS_NOT_A_MEMBER" },
  query: z.object({
    organizationId: singleLine().optional(),
    organizationSlug: singleLine().optional(),
    membersLimit: z.coerce.number().int().min(1).optional(),
  }),
  response: FullOrganizationSchema.nullable(),
  handler: ({ c, ctx, query, session }) =>
    asActor(c, ctx, session, (actor) => service.getFullOrganization(ctx, actor, query)),
});

export const setActiveOrganizationRoute = defineRoute({
  method: "POST",
  path: "/organization/set-active",
  summary: "Make an organization the session's active one (null clears it)",
  tags,
  auth: "session",
  refusals: { USER_IS_NOT_A_MEMBER: "ORGANIZATION_ACCESS_NOT_A_MEMBER" },
  body: z.object({ organizationId: singleLine().nullable().optional(), organizationSlug: singleLine().optional() }),
  response: OrganizationSchema.nullable(),
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.setActiveOrganization(ctx, actor, body)),
});

export const updateOrganizationRoute = defineRoute({
  method: "POST",
  path: "/organization/update",
  summary: "Update an organization's name, slug, logo or metadata",
  tags,
  auth: "optional-session",
  body: z.object({
    data: z.object({
      name: singleLine().min(1).optional(),
      slug: singleLine().min(1).optional(),
      logo: singleLine().optional(),
      metadata: metadata.optional(),
    }),
    organizationId: singleLine().optional(),
  }),
  response: OrganizationSchema,
  handler: ({ c, ctx, body, session }) => {
    if (!session) throw new AuthError("ORG_USER_NOT_FOUND");
    return asActor(c, ctx, session, (actor) => service.updateOrganization(ctx, actor, body.organizationId, body.data));
  },
});

export const deleteOrganizationRoute = defineRoute({
  method: "POST",
  path: "/organization/delete",
  summary: "Delete an organization with its members, invitations and teams",
  tags,
  auth: "session",
  body: z.object({ organizationId: singleLine() }),
  response: OrganizationSchema,
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.deleteOrganization(ctx, actor, body.organizationId)),
});

export const organizationCoreRoutes = [
  createOrganizationRoute,
  checkSlugRoute,
  listOrganizationsRoute,
  getFullOrganizationRoute,
  setActiveOrganizationRoute,
  updateOrganizationRoute,
  deleteOrganizationRoute,
];
