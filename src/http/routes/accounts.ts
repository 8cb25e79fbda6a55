import * as z from "zod";
import { listAccounts, unlinkAccount } from "../../services/accounts.ts";
import { LinkedAccountSchema } from "../../wire/account.ts";
import { StatusSchema } from "../../wire/common.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";

const tags = ["Accounts"];

export const listAccountsRoute = defineRoute({
  method: "GET",
  path: "/list-accounts",
  summary: "The caller's linked accounts (credential and social)",
  tags,
  auth: "session",
  response: z.array(LinkedAccountSchema),
  handler: async ({ ctx, session }) => {
    return listAccounts(ctx, session.user.id);
  },
});

export const unlinkAccountRoute = defineRoute({
  method: "POST",
  path: "/unlink-account",
  summary: "Unlink one of the caller's accounts",
  description: "Needs a fresh session. The last account stays unless account.accountLinking.allowUnlinkingAll is set.",
  tags,
  auth: "session",
  body: z.object({ providerId: singleLine(), accountId: singleLine().optional() }),
  response: StatusSchema,
  handler: async ({ ctx, body, session }) => {
    await unlinkAccount(ctx, session.session, body.providerId, body.accountId);
    return { status: true };
  },
});

export const accountRoutes = [listAccountsRoute, unlinkAccountRoute];
