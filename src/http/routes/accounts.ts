import * as z from "zod";
import { listAccountsByUserId } from "../../db/repositories/accounts.ts";
import { AuthError } from "../../errors.ts";
import { unlinkAccount } from "../../services/accounts.ts";
import { isSessionFresh } from "../../services/sessions.ts";
import { iso } from "../../services/users.ts";
import { defineRoute } from "../route.ts";
import { StatusSchema } from "./schemas.ts";

const tags = ["Accounts"];

const AccountSchema = z
  .object({ id: z.string(), provider: z.string(), accountId: z.string(), scopes: z.array(z.string()), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: "LinkedAccount" });

export const listAccountsRoute = defineRoute({
  method: "GET",
  path: "/list-accounts",
  summary: "The caller's linked accounts (credential and social)",
  tags,
  auth: "session",
  response: z.array(AccountSchema),
  handler: async ({ ctx, session }) => {
    const rows = await listAccountsByUserId(ctx.db, session!.user.id);
    return rows.map((row) => ({
      id: row.id,
      provider: row.providerId,
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      accountId: row.accountId,
      scopes: row.scope ? row.scope.split(",").filter(Boolean) : [],
    }));
  },
});

export const unlinkAccountRoute = defineRoute({
  method: "POST",
  path: "/unlink-account",
  summary: "Unlink one of the caller's accounts",
  description: "Needs a fresh session. The last account stays unless account.accountLinking.allowUnlinkingAll is set.",
  tags,
  auth: "session",
  body: z.object({ providerId: z.string(), accountId: z.string().optional() }),
  response: StatusSchema,
  handler: async ({ ctx, body, session }) => {
    if (!isSessionFresh(ctx, session!.session)) throw new AuthError("SESSION_NOT_FRESH");
    await unlinkAccount(ctx, session!.user.id, body.providerId, body.accountId);
    return { status: true };
  },
});

export const accountRoutes = [listAccountsRoute, unlinkAccountRoute];
