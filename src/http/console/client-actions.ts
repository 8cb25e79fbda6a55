import type { Context } from "hono";
import type { NewClientInput } from "../../../ui/data.ts";
import type { FormFields } from "../pages/guard.ts";
import { clientIdOf, clientScreen, clientsScreen, showOnce } from "./clients-page.ts";
import { ConsoleFormProblem, formAction, requireConfirmed } from "./form-problems.ts";
import { backTo } from "./frame.ts";

// The forms of the OpenID clients screens: register, change, give a new secret, remove. Each needs
// oauthClient:manage and acts through AdminData as the signed-in admin (an oidc_client_* event naming them).
// A new secret is drawn in the answer to its form, once: the page is not a redirect, and nothing keeps it.

const MANAGE = { oauthClient: ["manage"] };
const MAX_URIS = 50;
const ALGORITHMS = ["RS256", "ES256", "EdDSA"] as const;

/** Space-separated URIs (a form field holds one line: a URI never holds a space in its normal form). */
function uris(fields: FormFields, name: string, form: string): string[] {
  const list = (fields[name] ?? "").split(/\s+/).filter((uri) => uri !== "");
  if (list.length > MAX_URIS) throw new ConsoleFormProblem(form, "console.clients.problem.invalid");
  return list;
}

function registration(fields: FormFields): NewClientInput {
  const form = "register";
  const algorithm = ALGORITHMS.find((each) => each === (fields.idTokenAlg ?? "RS256"));
  if (!algorithm || !["public", "confidential"].includes(fields.type ?? ""))
    throw new ConsoleFormProblem(form, "console.clients.problem.invalid");
  return {
    name: fields.name ?? "",
    redirectURIs: uris(fields, "redirectURIs", form),
    postLogoutRedirectURIs: uris(fields, "postLogoutRedirectURIs", form),
    idTokenAlg: algorithm,
    isPublic: fields.type === "public",
    skipConsent: fields.skipConsent === "yes",
    backchannelLogoutURI: (fields.backchannelLogoutURI ?? "").trim() || null,
  };
}

const clientPath = (id: string) => `/clients/${encodeURIComponent(id)}`;
const INVALID = { INVALID_OAUTH_CLIENT: "console.clients.problem.invalid" } as const;

export const CLIENT_ACTION_HANDLERS = {
  createOAuthClient: formAction(
    MANAGE,
    clientsScreen.draw,
    () => "register",
    INVALID,
    async (c, ctx, access, fields) => {
      showOnce(c, { fields });
      const created = await access.data.createOAuthClient(registration(fields));
      if (created.client_secret === undefined)
        return { to: clientPath(created.client_id), notice: "console.clients.notice.registered" };
      showOnce(c, { clientId: created.client_id, secret: created.client_secret, fields: undefined });
      return clientScreen.draw(c, ctx, access);
    },
  ),
  updateOAuthClient: formAction(
    MANAGE,
    clientScreen.draw,
    () => "update",
    INVALID,
    async (c, _ctx, access, fields) => {
      showOnce(c, { fields });
      const id = clientIdOf(c);
      await access.data.updateOAuthClient(id, {
        name: fields.name ?? "",
        redirectURIs: uris(fields, "redirectURIs", "update"),
        postLogoutRedirectURIs: uris(fields, "postLogoutRedirectURIs", "update"),
        skipConsent: fields.skipConsent === "yes",
        backchannelLogoutURI: (fields.backchannelLogoutURI ?? "").trim() || null,
      });
      return { to: clientPath(id), notice: "console.clients.notice.updated" };
    },
  ),
  rotateOAuthClientSecret: formAction(
    MANAGE,
    clientScreen.draw,
    () => "rotate",
    { INVALID_OAUTH_CLIENT: "console.clients.problem.public" },
    async (c, ctx, access, fields) => {
      requireConfirmed(fields, "rotate", "console.clients.problem.confirm");
      const rotated = await access.data.rotateOAuthClientSecret(clientIdOf(c));
      showOnce(c, { secret: rotated.client_secret });
      return clientScreen.draw(c, ctx, access);
    },
  ),
  deleteOAuthClient: formAction(
    MANAGE,
    clientScreen.draw,
    () => "delete",
    {},
    async (c: Context, _ctx, access, fields) => {
      requireConfirmed(fields, "delete", "console.clients.problem.confirm");
      await access.data.deleteOAuthClient(clientIdOf(c));
      return backTo(c, "/clients", "console.clients.notice.deleted");
    },
  ),
};
