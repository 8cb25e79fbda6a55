import type { UserRow } from "../../db/schema.ts";
import type { SignInStrategy } from "./strategy.ts";

// Following a verification link with auto sign-in on: the link proved the mailbox (the address is verified
// by the time the strategy runs), and its user signs in through the gate. The magic link and the email code,
// the other mailbox proofs, are their features' strategies (magic-link/sign-in.ts, email-otp/sign-in.ts).

/** A verification link just followed (the address is verified): the user it verified signs in. */
export const verificationLinkStrategy: SignInStrategy<{ user: UserRow }> = {
  attempt: () => ({ method: "email-verification" }),
  checkCredential: async (_ctx, input) => ({ ok: true, user: input.user }),
};
