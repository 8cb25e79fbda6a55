import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { passkeysWorkOnPages } from "../../services/passkeys/relying-party.ts";
import { passkeyStrategy } from "../../services/passkeys/sign-in.ts";
import { reauthenticate } from "../../services/sign-in/reauthentication.ts";
import { jsonObject } from "../fields.ts";
import { readChallengeCookie, withChallengeSpent } from "../passkey-cookie.ts";
import { rememberedChoice, signInRequestOf } from "../sign-in.ts";
import { browserSession, reauthenticationBack, signedInAgain } from "./account-reauthenticate-page.ts";
import { guardForm } from "./guard.ts";
import { pageRefusal } from "./respond.ts";

// Re-authenticating with a passkey, from the re-authentication page's script (WebAuthn is a script API).
// The script asks POST /passkey/generate-authenticate-options while signed in, so the challenge names the
// signed-in user and lists only their passkeys; the browser's assertion then comes here as a form field
// (`response`, its JSON), under the page's form token and Origin check, and is checked by the passkey
// strategy through the sign-in pipeline for the signed-in user only: another account's passkey is refused
// and switches nothing. Answers JSON for the script: where to go next, or the refusal's code.

const Assertion = jsonObject();

function refused(c: Context, code: string, status: ContentfulStatusCode, headers: Record<string, string> = {}) {
  const answer = c.json({ code }, status);
  for (const [name, value] of Object.entries(headers)) answer.headers.append(name, value);
  return answer;
}

function readAssertion(raw: string | undefined): Record<string, unknown> | null {
  try {
    const parsed = Assertion.safeParse(JSON.parse(raw ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function postReauthenticatePasskey(c: Context, ctx: AuthContext): Promise<Response> {
  if (!passkeysWorkOnPages(ctx)) return refused(c, "NOT_FOUND", 404);
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return refused(c, guarded.problem, 403);
  const session = await browserSession(c, ctx);
  if (!session) return refused(c, "UNAUTHORIZED", 401);
  const response = readAssertion(guarded.fields.response);
  if (!response) return refused(c, "AUTHENTICATION_FAILED", 400);
  const back = reauthenticationBack(ctx, guarded.fields.redirect);
  const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
  try {
    const location = await withChallengeSpent(c, ctx, async () => {
      const assertion = { handle: readChallengeCookie(c, ctx), response };
      const result = await reauthenticate(ctx, session.user, passkeyStrategy, assertion, request, "MISMATCH");
      if (result.kind === "refused") throw new AuthError("AUTHENTICATION_FAILED");
      return signedInAgain(c, ctx, session, result, request, back);
    });
    return c.json({ location });
  } catch (error) {
    const { code, status } = pageRefusal(error);
    return refused(c, code, status, (error as AuthError).headers);
  }
}
