import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

// Organizations, their members, invitations and teams, in the shapes of Better Auth's organization plugin.
// teamId is there when teams are on: a member's team, or an invitation's invited teams comma-joined
// ("" for none, as Better Auth stores them).

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: IsoDateSchema,
});
export type Organization = z.output<typeof OrganizationSchema>;

/** The user of a member, as member listings show it. */
export const MemberUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
});

/** A membership; listings (and removal, leaving) show its user too. */
export const MemberSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  /** One role, or several separated by commas. */
  role: z.string(),
  createdAt: IsoDateSchema,
  teamId: z.string().nullable().optional(),
  user: MemberUserSchema.optional(),
});
export type Member = z.output<typeof MemberSchema>;

export const MemberWithUserSchema = MemberSchema.extend({ user: MemberUserSchema });
export type MemberWithUser = z.output<typeof MemberWithUserSchema>;

export const InvitationStatusSchema = z.enum(["pending", "accepted", "rejected", "canceled"]);
export type InvitationStatus = z.output<typeof InvitationStatusSchema>;

export const InvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.string(),
  status: InvitationStatusSchema,
  inviterId: z.string(),
  expiresAt: IsoDateSchema,
  teamId: z.string().optional(),
});
export type Invitation = z.output<typeof InvitationSchema>;

/** The invitee's view of a pending invitation (get-invitation). */
export const InvitationDetailsSchema = InvitationSchema.extend({
  organizationName: z.string(),
  organizationSlug: z.string(),
  inviterEmail: z.string(),
});
export type InvitationDetails = z.output<typeof InvitationDetailsSchema>;

export const TeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  createdAt: IsoDateSchema,
  updatedAt: IsoDateSchema.nullable(),
});
export type Team = z.output<typeof TeamSchema>;

export const TeamMemberSchema = z.object({
  id: z.string(),
  teamId: z.string(),
  userId: z.string(),
  createdAt: IsoDateSchema,
});
export type TeamMember = z.output<typeof TeamMemberSchema>;

/** An organization just created, with its creator's membership. */
export const OrganizationWithMembersSchema = OrganizationSchema.extend({ members: z.array(MemberSchema) });
export type OrganizationWithMembers = z.output<typeof OrganizationWithMembersSchema>;

/** An organization with its members (and their users), invitations and teams (null when teams are off). */
export const FullOrganizationSchema = OrganizationSchema.extend({
  members: z.array(MemberWithUserSchema),
  invitations: z.array(InvitationSchema),
  teams: z.array(TeamSchema).nullable(),
});
export type FullOrganization = z.output<typeof FullOrganizationSchema>;
