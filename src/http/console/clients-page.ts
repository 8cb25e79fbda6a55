import type { Context } from "hono";
import type { OAuthClientWire } from "../../../ui/data.ts";
import type { ConsoleClientFormValues, ConsoleClientRow } from "../../../ui/web/state.ts";
import type { FormFields } from "../pages/guard.ts";
import { consoleScreen } from "./frame.ts";

// The OpenID clients screens (/console/clients, /console/clients/:id), offered while the OpenID Provider is
// on: the registered clients with the registration form, and one client with its forms (client-actions.ts).
// A secret reaches a screen only in the answer to the form that made it (`shown`), never from a GET.

export function toClientRow(client: OAuthClientWire): ConsoleClientRow {
  return {
    id: client.client_id,
    name: client.client_name,
    isPublic: client.token_endpoint_auth_method === "none",
    redirectURIs: client.redirect_uris,
    postLogoutRedirectURIs: client.post_logout_redirect_uris,
    idTokenAlg: client.id_token_signed_response_alg,
    skipConsent: client.skip_consent,
    backchannelLogoutURI: client.backchannel_logout_uri,
    createdAt: client.created_at,
  };
}

/** What a form of this request made or was sent with: the client and its one-time secret, the fields. */
const shown = new WeakMap<Context, { clientId?: string; secret?: string | null; fields?: FormFields }>();

export function showOnce(c: Context, made: { clientId?: string; secret?: string | null; fields?: FormFields }): void {
  shown.set(c, { ...shown.get(c), ...made });
}

/** A client form's values as sent, to draw the form again with its problem. */
function formValues(fields: FormFields | undefined): ConsoleClientFormValues | null {
  if (!fields) return null;
  return {
    name: fields.name ?? "",
    redirectURIs: fields.redirectURIs ?? "",
    postLogoutRedirectURIs: fields.postLogoutRedirectURIs ?? "",
    backchannelLogoutURI: fields.backchannelLogoutURI ?? "",
    skipConsent: fields.skipConsent === "yes",
    isPublic: fields.type === "public",
    idTokenAlg: fields.idTokenAlg ?? "RS256",
  };
}

export const clientsScreen = consoleScreen("clients", { oauthClient: ["list"] }, async (c, _ctx, access) => {
  const clients = await access.data.listOAuthClients();
  return { page: "console-clients", clients: clients.map(toClientRow), form: formValues(shown.get(c)?.fields) };
});

/** The client the path names (/console/clients/:id/…), or the one the registration just made. */
export const clientIdOf = (c: Context): string => shown.get(c)?.clientId ?? c.req.param("id") ?? "";

export const clientScreen = consoleScreen("clients", { oauthClient: ["list"] }, async (c, _ctx, access) => {
  const client = await access.data.findOAuthClient(clientIdOf(c));
  if (!client) return null;
  const made = shown.get(c);
  return {
    page: "console-client",
    client: toClientRow(client),
    secret: made?.secret ?? null,
    form: formValues(made?.fields),
  };
});

export const CLIENTS_HANDLERS = {
  showOAuthClients: clientsScreen.show,
  showOAuthClient: clientScreen.show,
};
