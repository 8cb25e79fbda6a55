// Named hooks: how the core calls an optional feature without importing it. The core module where something
// happens declares the hook, named after what happened there ("a password was changed", "an account was
// claimed"), and calls whatever was registered; each feature registers its handlers in its own `hooks.ts`,
// and src/features.ts (the composition, called by every entry point before it builds a context) registers
// every feature. The hooks (ARCHITECTURE.md, "Features and hooks"):
// - credentialKinds (services/account-claim.ts): the credentials an account claim removes
// - passwordChanged (services/passwords.ts): a user's existing password was replaced
// - lockoutsLifted (services/admin.ts): an operator set a new password, so every lock-out on the account goes
// - sealedStores (services/secret-rotation.ts): stored values sealed with the app secret, to seal again
// - userCopies (services/sessions/local-cache.ts): this process's copies of rows that carry user fields
// - credentialPassed (services/sign-in/gate.ts): a sign-in proved its credential; the second factor answers
// - verificationMailCode (services/email-verification.ts): a verification mail is written; email codes add one
// - mailRenderer (services/mail/delivery.ts): a mail is to be written; the composition hands over ui/mail
// - sessionsEnded (services/sessions/revocation.ts): sessions were ended; the OpenID Provider ends their token
//   families and sends back-channel logout tokens
//
// Every hook has at least one handler in a complete build. One with none means the composition was not run
// (an entry point that skipped src/features.ts): the core then refuses at first use, loudly, instead of
// silently doing less (a claim that leaves passkeys behind, a password change that keeps trusted browsers).

export interface Hook<Handler> {
  readonly name: string;
  register(handler: Handler): void;
  /** Every registered handler, in the order registered; throws when none is. */
  handlers(): readonly Handler[];
  /** The one registered handler; throws when there is none, or several. */
  handler(): Handler;
}

const declared: { name: string; count: () => number }[] = [];

class HookNotComposed extends Error {
  constructor(name: string, count: number) {
    super(
      count === 0
        ? `hook "${name}" has no handler: call registerFeatures() (src/features.ts) before building a context`
        : `hook "${name}" takes one handler and has ${count}`,
    );
    this.name = "HookNotComposed";
  }
}

/** Declare a hook; the core module that calls it owns it, features register into it. */
export function defineHook<Handler>(name: string): Hook<Handler> {
  const registered: Handler[] = [];
  const hook: Hook<Handler> = {
    name,
    register: (handler) => {
      registered.push(handler);
    },
    handlers: () => {
      if (registered.length === 0) throw new HookNotComposed(name, 0);
      return registered;
    },
    handler: () => {
      if (registered.length !== 1) throw new HookNotComposed(name, registered.length);
      return registered[0];
    },
  };
  declared.push({ name, count: () => registered.length });
  return hook;
}

/** The hooks declared so far (by the modules loaded) and how many handlers each has: for tests and diagnostics. */
export function declaredHooks(): { name: string; handlers: number }[] {
  return declared.map((hook) => ({ name: hook.name, handlers: hook.count() }));
}
