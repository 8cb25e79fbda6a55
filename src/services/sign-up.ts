import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors.ts";
import { requireValidEmail } from "./email-address.ts";
import { sendVerificationEmail } from "./email-verification.ts";
import { sourceOf } from "./request-origin.ts";
import type { LiveSession } from "./sessions/sessions.ts";
import { sessionOptionsFor, startSession } from "./sign-in/start-session.ts";
import type { SignInRequest } from "./sign-in/strategy.ts";
import { pickAdditionalFields } from "./user-fields.ts";
import { prepareUsernameForSignUp } from "./usernames.ts";
import { assertPasswordLength, createUser, findUserByEmail, type UserRecord } from "./users.ts";

// Sign-up with an email and a password: the checks, the new user with its sign_up event, the verification
// mail, and the auto sign-in (a session started as every sign-in's is, with no credential left to check).
// The API route and the pages to come call it alike; they render the answer and set the cookies.

/** What a sign-up form carries, as typed: the address is checked here, not by the caller. */
export interface SignUpInput {
  email: string;
  password: string;
  name?: string;
  image?: string | null;
  username?: string;
  displayUsername?: string;
  /** Where the verification link leads once opened. */
  callbackURL?: string;
  /** The configured additional user fields, among any other keys (only configured ones are read). */
  fields: Record<string, unknown>;
}

/** What a sign-up needs from the request: where it came from, and rememberMe for the session. */
export type SignUpRequest = Pick<SignInRequest, "ip" | "userAgent" | "noteUser" | "rememberMe">;

/** The new user, and their session unless auto sign-in is off or the address must be verified first. */
export interface SignUpResult {
  user: UserRecord;
  session: LiveSession | null;
}

/**
 * Create a user with a password. Refused while sign-up by email is off, for a malformed address, a password
 * outside the length rule, a bad or taken username, a taken address, or bad additional fields, in that order.
 */
export async function signUpWithPassword(
  ctx: AuthContext,
  input: SignUpInput,
  request: SignUpRequest,
): Promise<SignUpResult> {
  const options = ctx.config.emailAndPassword;
  if (!options.enabled || options.disableSignUp) throw new AuthError("EMAIL_PASSWORD_SIGN_UP_DISABLED");
  const email = requireValidEmail(input.email);
  assertPasswordLength(ctx, input.password);
  const username = await prepareUsernameForSignUp(ctx, input);
  if (await findUserByEmail(ctx, email)) throw new AuthError("USER_ALREADY_EXISTS");
  const additional = pickAdditionalFields(ctx, input.fields, "create");
  const user = await createUser(ctx, {
    email,
    name: input.name,
    image: input.image ?? null,
    password: input.password,
    ...username,
    additional,
    event: (created) => ({
      type: "sign_up",
      outcome: "success",
      method: "email",
      userId: created.id,
      source: sourceOf(request, "user", created.id),
    }),
  });

  const mustVerify = options.requireEmailVerification;
  if (ctx.config.emailVerification.sendOnSignUp || mustVerify)
    await sendVerificationEmail(ctx, user, input.callbackURL);
  if (!options.autoSignIn || mustVerify) return { user, session: null };
  const session = await startSession(ctx, user, sessionOptionsFor(request, request.rememberMe));
  return { user, session };
}
