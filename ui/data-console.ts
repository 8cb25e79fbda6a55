import type { AuthContext } from "../src/context.ts";
import {
  addOAuthClient,
  type ClientChanges,
  findClient,
  listClients,
  type NewClientInput,
  removeOAuthClient,
  rotateClientSecret,
  toOAuthClientWire,
  updateClient,
} from "../src/services/oidc-provider/clients.ts";
import {
  cancelInvitationAsOperator,
  changeMemberRoleAsOperator,
  organizationRoleNames,
  removeMemberAsOperator,
  resendInvitationAsOperator,
} from "../src/services/organizations/operator.ts";
import type { EventSource } from "../src/services/security-events.ts";
import type { OAuthClientWire, OAuthClientWithSecretWire } from "../src/wire/oauth-client.ts";

// Parts of AdminData (ui/data.ts) the web console added: an operator's changes to an organization's members
// and invitations, and the OpenID Provider's clients. Kept here so ui/data.ts stays one screen of the whole.

export interface OrganizationAdminData {
  /** The organization role table's names: what a member's role may be set to. */
  organizationRoles(): string[];
  /** Give a member of the organization another role; the organization keeps at least one owner. */
  changeMemberRole(organizationId: string, memberId: string, role: string): Promise<void>;
  /** Remove a member of the organization (not its last owner). */
  removeMember(organizationId: string, memberId: string): Promise<void>;
  /** Mail a pending invitation again with a new expiry (a new invitation in its place). */
  resendInvitation(organizationId: string, invitationId: string): Promise<void>;
  cancelInvitation(organizationId: string, invitationId: string): Promise<void>;
}

export interface OAuthClientAdminData {
  /** Whether the OpenID Provider is on (oidcProvider.enabled): its clients are managed only then. */
  oidcProviderEnabled(): boolean;
  listOAuthClients(): Promise<OAuthClientWire[]>;
  findOAuthClient(clientId: string): Promise<OAuthClientWire | null>;
  /** The secret (confidential clients) is answered here once; only its digest is kept. */
  createOAuthClient(input: NewClientInput): Promise<OAuthClientWithSecretWire>;
  updateOAuthClient(clientId: string, changes: ClientChanges): Promise<OAuthClientWire>;
  rotateOAuthClientSecret(clientId: string): Promise<OAuthClientWithSecretWire>;
  deleteOAuthClient(clientId: string): Promise<void>;
}

/** An operator's actions on an organization's members and invitations (the console's organization screen). */
export function organizationActions(ctx: AuthContext, source: EventSource): OrganizationAdminData {
  return {
    organizationRoles: () => organizationRoleNames(ctx),
    async changeMemberRole(organizationId, memberId, role) {
      await changeMemberRoleAsOperator(ctx, organizationId, memberId, role, source);
    },
    async removeMember(organizationId, memberId) {
      await removeMemberAsOperator(ctx, organizationId, memberId, source);
    },
    async resendInvitation(organizationId, invitationId) {
      await resendInvitationAsOperator(ctx, organizationId, invitationId, source);
    },
    async cancelInvitation(organizationId, invitationId) {
      await cancelInvitationAsOperator(ctx, organizationId, invitationId, source);
    },
  };
}

/** The OpenID Provider's clients, as the console reads and changes them (the secret answered once). */
export function oauthClientData(ctx: AuthContext, source: EventSource): OAuthClientAdminData {
  return {
    oidcProviderEnabled: () => ctx.config.oidcProvider.enabled,
    listOAuthClients: async () => (await listClients(ctx)).map(toOAuthClientWire),
    findOAuthClient: async (clientId) => {
      const client = await findClient(ctx, clientId);
      return client ? toOAuthClientWire(client) : null;
    },
    async createOAuthClient(input) {
      const { client, secret } = await addOAuthClient(ctx, input, source);
      const wire = toOAuthClientWire(client);
      return secret === null ? wire : { ...wire, client_secret: secret };
    },
    updateOAuthClient: async (clientId, changes) =>
      toOAuthClientWire(await updateClient(ctx, clientId, changes, source)),
    async rotateOAuthClientSecret(clientId) {
      const { client, secret } = await rotateClientSecret(ctx, clientId, source);
      return { ...toOAuthClientWire(client), client_secret: secret };
    },
    async deleteOAuthClient(clientId) {
      await removeOAuthClient(ctx, clientId, source);
    },
  };
}
