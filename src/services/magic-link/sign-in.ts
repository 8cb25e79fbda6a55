import { ownerOfProvenMailbox } from "../passwordless.ts";
import { sourceOf } from "../request-origin.ts";
import { recordMailboxProof } from "../sign-in/events.ts";
import type { SignInStrategy } from "../sign-in/strategy.ts";
import { redeemMagicLink } from "./magic-link.ts";

// Signing in by following a magic link: the mailbox's user is theirs (created when sign-up that way is
// allowed); the proof's own events (a sign-up, an address verified) are recorded before the gate.

/** A refused link, as the redirect's ?error= names it. */
export type MagicLinkRefusal = "INVALID_TOKEN" | "EXPIRED_TOKEN" | "new_user_signup_disabled";

export const magicLinkStrategy: SignInStrategy<{ token: string }, MagicLinkRefusal> = {
  attempt: () => ({ method: "magic-link" }),
  passwordless: true,
  checkCredential: async (ctx, input, request) => {
    const link = await redeemMagicLink(ctx, input.token);
    if (!link.ok) return { ok: false, refusal: link.failure, reason: "invalid_token" };
    const allowSignUp = !ctx.config.magicLink.disableSignUp;
    const proof = { method: "magic-link", source: sourceOf(request) } as const;
    const owner = await ownerOfProvenMailbox(ctx, link.email, link.name, allowSignUp, proof);
    if (!owner) return { ok: false, refusal: "new_user_signup_disabled", reason: "signup_disabled" };
    await recordMailboxProof(ctx, owner, "magic-link", request);
    return { ok: true, user: owner.user, isNewUser: owner.isNewUser };
  },
};
