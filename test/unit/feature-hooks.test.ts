import { describe, expect, it } from "vitest";
import { registerFeatures } from "../../src/features.ts";
import "../../src/services/account-claim.ts";
import "../../src/services/admin.ts";
import "../../src/services/email-verification.ts";
import { declaredHooks, defineHook } from "../../src/services/hooks.ts";
import "../../src/services/passwords.ts";
import "../../src/services/secret-rotation.ts";
import "../../src/services/sessions/local-cache.ts";
import "../../src/services/sessions/revocation.ts";
import "../../src/services/sign-in/gate.ts";

// The core calls the optional features only through hooks (ARCHITECTURE.md, "Features and hooks"). A hook
// left without a handler would silently drop a security step (a claim that keeps passkeys), so the
// composition must fill every one, and an empty hook must refuse loudly rather than do nothing.

describe("feature hooks", () => {
  it("refuses to run a hook nothing registered into, naming the hook and the composition", () => {
    const forgotten = defineHook<() => void>("forgottenInThisTest");
    expect(() => forgotten.handlers()).toThrow(/hook "forgottenInThisTest" has no handler: call registerFeatures\(\)/);
    expect(() => forgotten.handler()).toThrow(/has no handler/);
    forgotten.register(() => {});
    forgotten.register(() => {});
    expect(forgotten.handlers()).toHaveLength(2);
    expect(() => forgotten.handler()).toThrow(/takes one handler and has 2/);
  });

  it("gives every hook the core declares a handler once the features are registered, and only once", () => {
    registerFeatures();
    registerFeatures();
    const core = declaredHooks().filter((hook) => hook.name !== "forgottenInThisTest");
    expect(Object.fromEntries(core.map((hook) => [hook.name, hook.handlers]))).toEqual({
      credentialKinds: 5, // API keys, passkeys, trusted browsers, the second factor, OpenID Provider consents
      lockoutsLifted: 1,
      passwordChanged: 1,
      sealedStores: 2, // two-factor rows, JWT keys
      userCopies: 1,
      credentialPassed: 1,
      verificationMailCode: 1, // email codes (a code beside the link while they are on)
      mailRenderer: 1, // the composition's: ui/mail, loaded with the first mail
      sessionsEnded: 1, // the OpenID Provider: token families and back-channel logout
    });
  });
});
