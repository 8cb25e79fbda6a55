import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { accountInfo, getAccessToken, refreshTokens } from "../../services/oauth/provider-tokens.ts";
import { isProviderConfigured } from "../../services/oauth/providers.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import type { ResolvedSession } from "../session.ts";

// The provider tokens stored on a user's accounts (services/oauth/provider-tokens.ts). A session sees
// only its own accounts; a server call may name the user.

const TokenBody = z.object({
  providerId: singleLine(),
  accountId: singleLine().optional(),
  userId: singleLine().optional(),
});

function targetUserId(session: ResolvedSession | null, isServer: boolean, userId: string | undefined): string {
  const resolved = session?.user.id ?? (isServer ? userId : undefined);
  if (!resolved) throw new AuthError("USER_ID_OR_SESSION_REQUIRED");
  return resolved;
}

export const getAccessTokenRoute = defineRoute({
  method: "POST",
  path: "/get-access-token",
  summary: "A valid access token of a linked provider account",
  description: "Refreshes the token first when it expires in under 5 seconds.",
  tags: ["Social"],
  auth: "session-or-server",
  body: TokenBody,
  handler: async ({ ctx, body, session, isServer }) => {
    const userId = targetUserId(session, isServer, body.userId);
    if (!isProviderConfigured(ctx, body.providerId))
      throw new AuthError("PROVIDER_NOT_SUPPORTED", { message: `Provider ${body.providerId} is not supported.` });
    return getAccessToken(ctx, { userId, providerId: body.providerId, accountId: body.accountId });
  },
});

export const refreshTokenRoute = defineRoute({
  method: "POST",
  path: "/refresh-token",
  summary: "Refresh the tokens of a linked provider account",
  tags: ["Social"],
  auth: "session-or-server",
  body: TokenBody,
  handler: ({ ctx, body, session, isServer }) =>
    refreshTokens(ctx, {
      userId: targetUserId(session, isServer, body.userId),
      providerId: body.providerId,
      accountId: body.accountId,
    }),
});

export const accountInfoRoute = defineRoute({
  method: "POST",
  path: "/account-info",
  summary: "What the provider says about a linked account",
  tags: ["Social"],
  auth: "session-or-server",
  body: z.object({ accountId: singleLine(), userId: singleLine().optional() }),
  response: z.object({ user: z.record(z.string(), z.unknown()), data: z.record(z.string(), z.unknown()) }),
  handler: ({ ctx, body, session, isServer }) =>
    accountInfo(ctx, targetUserId(session, isServer, body.userId), body.accountId),
});

export const providerTokenRoutes = [getAccessTokenRoute, refreshTokenRoute, accountInfoRoute];
