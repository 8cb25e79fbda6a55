import * as z from "zod";
import { actorFor, assertAdminPermission } from "../../../services/admin.ts";
import {
  addOAuthClient,
  listClients,
  removeOAuthClient,
  requireOAuthClient,
  rotateClientSecret,
  toOAuthClientWire,
  updateClient,
} from "../../../services/oidc-provider/clients.ts";
import { SuccessSchema } from "../../../wire/common.ts";
import { OAuthClientSchema, OAuthClientWithSecretSchema } from "../../../wire/oauth-client.ts";
import { singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";
import { adminRequestSource } from "../../security-log.ts";

// The OpenID Provider's clients over HTTP (authd's own; `authd clients` does the same from a terminal, the web
// console through the same services). Reading needs oauthClient:list, every change oauthClient:manage. Field
// names are RFC 7591's, as the clients are shown; a secret is answered once and kept as a digest only.

const tags = ["Admin"];
const URIList = z.array(singleLine().min(1).max(2000)).max(50);
const ClientList = z.object({ clients: z.array(OAuthClientSchema) });

export const adminListOAuthClients = defineRoute({
  method: "GET",
  path: "/admin/oauth-clients",
  summary: "List the OpenID Provider's clients (admin)",
  tags,
  auth: "session-or-server",
  response: ClientList,
  handler: async ({ ctx, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { oauthClient: ["list"] });
    return { clients: (await listClients(ctx)).map(toOAuthClientWire) };
  },
});

export const adminGetOAuthClient = defineRoute({
  method: "GET",
  path: "/admin/oauth-clients/:clientId",
  summary: "Show one client of the OpenID Provider (admin)",
  tags,
  auth: "session-or-server",
  response: OAuthClientSchema,
  handler: async ({ ctx, params, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { oauthClient: ["list"] });
    return toOAuthClientWire(await requireOAuthClient(ctx, params.clientId ?? ""));
  },
});

export const adminCreateOAuthClient = defineRoute({
  method: "POST",
  path: "/admin/oauth-clients",
  summary: "Register a client of the OpenID Provider (admin)",
  description:
    "token_endpoint_auth_method none registers a public client (PKCE, no secret). The answer carries client_secret once.",
  tags,
  auth: "session-or-server",
  body: z.object({
    client_name: singleLine().min(1).max(200),
    redirect_uris: URIList.min(1),
    post_logout_redirect_uris: URIList.optional(),
    id_token_signed_response_alg: z.enum(["RS256", "ES256", "EdDSA"]).optional(),
    token_endpoint_auth_method: z.enum(["client_secret_basic", "none"]).optional(),
    skip_consent: z.boolean().optional(),
    backchannel_logout_uri: singleLine().min(1).max(2000).nullish(),
  }),
  response: OAuthClientWithSecretSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { oauthClient: ["manage"] });
    const input = {
      name: body.client_name,
      redirectURIs: body.redirect_uris,
      postLogoutRedirectURIs: body.post_logout_redirect_uris,
      idTokenAlg: body.id_token_signed_response_alg,
      isPublic: body.token_endpoint_auth_method === "none",
      skipConsent: body.skip_consent,
      backchannelLogoutURI: body.backchannel_logout_uri,
    };
    const { client, secret } = await addOAuthClient(ctx, input, adminRequestSource(c, ctx, actor));
    const wire = toOAuthClientWire(client);
    return secret === null ? wire : { ...wire, client_secret: secret };
  },
});

export const adminUpdateOAuthClient = defineRoute({
  method: "POST",
  path: "/admin/oauth-clients/:clientId",
  summary: "Change a client's name, URIs or consent (admin)",
  description: "Only the fields given change; backchannel_logout_uri null removes it. URIs obey registration's rules.",
  tags,
  auth: "session-or-server",
  body: z.object({
    client_name: singleLine().min(1).max(200).optional(),
    redirect_uris: URIList.min(1).optional(),
    post_logout_redirect_uris: URIList.optional(),
    skip_consent: z.boolean().optional(),
    backchannel_logout_uri: singleLine().min(1).max(2000).nullish(),
  }),
  response: OAuthClientSchema,
  handler: async ({ c, ctx, body, params, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { oauthClient: ["manage"] });
    const changes = {
      name: body.client_name,
      redirectURIs: body.redirect_uris,
      postLogoutRedirectURIs: body.post_logout_redirect_uris,
      skipConsent: body.skip_consent,
      backchannelLogoutURI: body.backchannel_logout_uri,
    };
    const source = adminRequestSource(c, ctx, actor);
    return toOAuthClientWire(await updateClient(ctx, params.clientId ?? "", changes, source));
  },
});

export const adminRotateOAuthClientSecret = defineRoute({
  method: "POST",
  path: "/admin/oauth-clients/:clientId/rotate-secret",
  summary: "Give a confidential client a new secret (admin)",
  description: "The old secret stops working at once; the new one is answered once.",
  tags,
  auth: "session-or-server",
  response: OAuthClientWithSecretSchema,
  handler: async ({ c, ctx, params, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { oauthClient: ["manage"] });
    const source = adminRequestSource(c, ctx, actor);
    const { client, secret } = await rotateClientSecret(ctx, params.clientId ?? "", source);
    return { ...toOAuthClientWire(client), client_secret: secret };
  },
});

export const adminDeleteOAuthClient = defineRoute({
  method: "POST",
  path: "/admin/oauth-clients/:clientId/delete",
  summary: "Remove a client with its grants, tokens and consents (admin)",
  tags,
  auth: "session-or-server",
  response: SuccessSchema,
  handler: async ({ c, ctx, params, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { oauthClient: ["manage"] });
    await removeOAuthClient(ctx, params.clientId ?? "", adminRequestSource(c, ctx, actor));
    return { success: true };
  },
});

/** Mounted when both the admin capability and the OpenID Provider are on. */
export const adminOAuthClientRoutes = [
  adminListOAuthClients,
  adminGetOAuthClient,
  adminCreateOAuthClient,
  adminUpdateOAuthClient,
  adminRotateOAuthClientSecret,
  adminDeleteOAuthClient,
];
