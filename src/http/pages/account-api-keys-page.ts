import type { Context } from "hono";
import type { ApiKeyRules, ApiKeyView } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { createApiKey, deleteApiKey, listApiKeys } from "../../services/api-keys/api-keys.ts";
import type { ApiKey } from "../../wire/api-key.ts";
import { requestSource } from "../security-log.ts";
import type { ResolvedSession } from "../session.ts";
import { type DrawSection, showAccountSection, takeAccountForm } from "./account-forms.ts";
import { accountState } from "./account-frame.ts";
import { renderPage } from "./respond.ts";

// The account page's API keys ({pages}/api-keys, with apiKey.enabled): the user's keys (never their
// secrets), a form to create one with what a user may set on their own key (a name and an expiry; the
// permissions, limits and refills are the server's to set: SERVER_ONLY_PROPERTY), and Revoke. Create and
// revoke run the services of POST /api-key/create and /api-key/delete with the same rule: a sign-in at
// most account.freshAge old. A new key is drawn once, in the answer to its post (the daemon keeps its hash).

const SECTION = "api-keys";
const DAY_SECONDS = 86_400;
/** Expiries offered, in days, where the configured bounds allow them. */
const EXPIRY_CHOICES = [1, 7, 30, 90, 365];

function keyRules(ctx: AuthContext): ApiKeyRules {
  const config = ctx.config.apiKey;
  const expiry = config.keyExpiration;
  const defaultMs = expiry.defaultExpiresIn;
  return {
    name: { min: config.minimumNameLength, max: config.maximumNameLength, required: config.requireName },
    expiryDays: expiry.disableCustomExpiresTime
      ? []
      : EXPIRY_CHOICES.filter((days) => days >= expiry.minExpiresIn && days <= expiry.maxExpiresIn),
    defaultExpiryDays: defaultMs === null ? null : Math.max(1, Math.round(defaultMs / (DAY_SECONDS * 1000))),
  };
}

const keyView = (key: ApiKey): ApiKeyView => ({
  id: key.id,
  name: key.name,
  start: key.start,
  createdAt: key.createdAt,
  expiresAt: key.expiresAt,
  lastUsedAt: key.lastRequest,
  enabled: key.enabled,
});

function drawApiKeys(c: Context, ctx: AuthContext, created: { name: string | null; key: string } | null = null) {
  const draw: DrawSection = async (session, problem = null, status = 200) => {
    const keys = (await listApiKeys(ctx, session.user.id)).map(keyView);
    const page = "account-api-keys" as const;
    const state = { ...accountState(c, ctx, session, problem), page, keys, rules: keyRules(ctx), created };
    return renderPage(c, ctx, state, status);
  };
  return draw;
}

export const showApiKeys = (c: Context, ctx: AuthContext) => showAccountSection(c, ctx, SECTION, drawApiKeys(c, ctx));

/** The expiry field: empty for the default, else a whole number of days. */
function expiresInOf(days: string | undefined): number | null {
  if (!days) return null;
  if (!/^\d{1,5}$/.test(days)) throw new AuthError("VALIDATION_ERROR");
  return Number(days) * DAY_SECONDS;
}

const ownerSource = (c: Context, ctx: AuthContext, session: ResolvedSession) =>
  requestSource(c, ctx, "user", session.user.id);

export const postCreateApiKey = (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawApiKeys(c, ctx), async (session, fields) => {
    const input = {
      userId: session.user.id,
      name: fields.name || undefined,
      expiresIn: expiresInOf(fields.expiresInDays),
    };
    const options = { isServer: false, ownerSession: session.session };
    const created = await createApiKey(ctx, input, options, ownerSource(c, ctx, session));
    return drawApiKeys(c, ctx, { name: created.name, key: created.key })(session);
  });

export const postRevokeApiKey = (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawApiKeys(c, ctx), async (session, fields) => {
    const options = { ownerSession: session.session };
    await deleteApiKey(ctx, session.user.id, fields.keyId ?? "", ownerSource(c, ctx, session), options);
    return "notice.account.apiKeyRevoked";
  });
