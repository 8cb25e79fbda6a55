// Generated from the server's wire schemas (src/wire/) by scripts/client-wire-types.ts: do not edit.
// Dates are Date objects: the client revives the ISO strings the server sends (json.ts).

export interface Status {
  status: boolean;
}

export interface Success {
  success: boolean;
}

export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: Date;
  updatedAt: Date;
  username?: string | null;
  displayUsername?: string | null;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: Date | null;
  twoFactorEnabled?: boolean | null;
  [field: string]: unknown;
}

export interface PublicUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface UsernameSignInUser extends PublicUser {
  username: string | null;
}

export interface UserList {
  users: User[];
  total: number;
  limit?: number;
  offset?: number;
}

export interface TokenAndUser {
  token: string | null;
  user: User;
}

export interface Session {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  activeOrganizationId?: string | null;
  activeTeamId?: string | null;
  impersonatedBy?: string | null;
}

export interface SessionWithUser {
  session: Session;
  user: User;
}

export interface LinkedAccount {
  id: string;
  provider: string;
  accountId: string;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

export interface MemberUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date;
  teamId?: string | null;
  user?: MemberUser;
}

export interface MemberWithUser extends Omit<Member, "user"> {
  user: MemberUser;
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: InvitationStatus;
  inviterId: string;
  expiresAt: Date;
  teamId?: string;
}

export interface InvitationDetails extends Invitation {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

export interface OrganizationWithMembers extends Organization {
  members: Member[];
}

export interface FullOrganization extends Organization {
  members: MemberWithUser[];
  invitations: Invitation[];
  teams: Team[] | null;
}

export type Permissions = Record<string, string[]>;

export interface ApiKey {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  userId: string;
  refillInterval: number | null;
  refillAmount: number | null;
  lastRefillAt: Date | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  remaining: number | null;
  lastRequest: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  metadata: Record<string, unknown> | null;
  permissions: Permissions | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface ApiKeyVerification {
  valid: boolean;
  error: {
    message: string;
    code: string;
    details?: {
      tryAgainIn: number;
    };
  } | null;
  key: ApiKey | null;
}
