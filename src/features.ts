import { registerApiKeyHooks } from "./services/api-keys/hooks.ts";
import { registerEmailOtpHooks } from "./services/email-otp/hooks.ts";
import { registerJwtHooks } from "./services/jwt/hooks.ts";
import { mailRenderer } from "./services/mail/delivery.ts";
import { registerOidcProviderHooks } from "./services/oidc-provider/hooks.ts";
import { registerPasskeyHooks } from "./services/passkeys/hooks.ts";
import { registerTwoFactorHooks } from "./services/two-factor/hooks.ts";

// The composition: the one module that knows every optional feature's hooks and registers them into the
// core's (services/hooks.ts). Every entry point that builds a context calls registerFeatures() first: the
// daemon and the CLI (src/cli/shared.ts), the test helpers and the benchmarks. The context cannot do it
// itself: every service imports its type, so src/context.ts importing the features would be a cycle.
//
// The order is the order the core calls them in: the account claim removes (and counts, in its event)
// API keys, passkeys, trusted browsers and the second factor, then the OpenID Provider's consents; the
// secret rotation seals two-factor rows again before JWT keys.
//
// It also hands the core the mail renderer (ui/mail/): mails are words for people, drawn with the message
// catalogue and React, which the services never import. It is loaded with the first mail, not here.

let registered = false;

/** Register every feature's hooks, once per process (later calls do nothing). */
export function registerFeatures(): void {
  if (registered) return;
  registered = true;
  registerApiKeyHooks();
  registerPasskeyHooks();
  registerTwoFactorHooks();
  registerJwtHooks();
  registerEmailOtpHooks();
  registerOidcProviderHooks();
  mailRenderer.register(() => import("../ui/mail/render.tsx").then((module) => module.renderMail));
}
