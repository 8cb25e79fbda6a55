import type { Context } from "hono";
import { type ConsoleApiKeyRow, type ConsoleApiKeysQuery, consoleHref, type YesNoAny } from "../../../ui/web/state.ts";
import type { FormFields } from "../pages/guard.ts";
import { seeOther } from "../pages/respond.ts";
import { formAction, requireConfirmed } from "./form-problems.ts";
import { consoleScreen, queryNumber } from "./frame.ts";

// The API keys screen (/console/api-keys): every user's keys, found by name, prefix, first characters or
// owner email and filtered by switched on or off and expired or not, a page at a time; revoking one (with
// its "I am sure" box) needs apiKey:revoke and goes back to the same page of the same search.

const PAGE_SIZE = 50;

const yesNoAny = (value: string | undefined): YesNoAny => (value === "yes" || value === "no" ? value : "");
const asFilter = (value: YesNoAny): boolean | undefined => (value === "" ? undefined : value === "yes");

/** The listing's query from the URL (a GET) or from the revoke form's hidden fields (a POST). */
function listingQuery(read: (name: string) => string | undefined): ConsoleApiKeysQuery {
  return {
    search: (read("search") ?? "").trim().slice(0, 256),
    enabled: yesNoAny(read("enabled")),
    expired: yesNoAny(read("expired")),
    offset: queryNumber(read("offset"), 0),
    limit: PAGE_SIZE,
  };
}

export const apiKeysScreen = consoleScreen("api-keys", { apiKey: ["list"] }, async (c, _ctx, access) => {
  const formFields = submittedFields.get(c);
  const query = listingQuery((name) => (formFields ? formFields[name] : c.req.query(name)));
  const page = await access.data.listApiKeys({
    search: query.search || undefined,
    enabled: asFilter(query.enabled),
    expired: asFilter(query.expired),
    limit: query.limit,
    offset: query.offset,
  });
  const now = access.data.now();
  const keys: ConsoleApiKeyRow[] = page.items.map((key) => ({
    id: key.id,
    name: key.name,
    start: key.start,
    prefix: key.prefix,
    userId: key.userId,
    userEmail: key.userEmail,
    enabled: key.enabled,
    expired: key.expiresAt !== null && Date.parse(key.expiresAt) <= now,
    ownerBanned: key.ownerBanned,
    expiresAt: key.expiresAt,
    lastRequest: key.lastRequest,
    createdAt: key.createdAt,
  }));
  return { page: "console-api-keys", keys, total: page.total, query };
});

/** A revoke form's fields, so a refusal redraws the page of the listing it was posted from. */
const submittedFields = new WeakMap<Context, FormFields>();

const keyForm = (fields: FormFields) => `key-${fields.keyId ?? ""}`;

export const API_KEYS_HANDLERS = {
  showApiKeys: apiKeysScreen.show,
  revokeListedApiKey: formAction(
    { apiKey: ["revoke"] },
    apiKeysScreen.draw,
    keyForm,
    { KEY_NOT_FOUND: "console.apiKeys.problem.gone" },
    async (c, _ctx, access, fields) => {
      submittedFields.set(c, fields);
      requireConfirmed(fields, keyForm(fields), "console.apiKeys.problem.confirm");
      await access.data.revokeApiKey(fields.keyId ?? "");
      const { search, enabled, expired, offset } = listingQuery((name) => fields[name]);
      const back = { search, enabled, expired, offset: offset || undefined, notice: "console.apiKeys.notice.revoked" };
      return seeOther(c, consoleHref("/api-keys", back));
    },
  ),
};
