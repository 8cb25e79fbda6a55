import { useState } from "react";
import { failureOf, passkeyAuth } from "./passkey-client.ts";

// Passkeys for the signed-in user: add one (the browser asks the authenticator), then list them.
export function AddPasskey({ onProblem }: { onProblem: (message: string | null) => void }) {
  const [names, setNames] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  async function add() {
    setBusy(true);
    onProblem(null);
    const problem = failureOf(await passkeyAuth.passkey.addPasskey({ name: "example passkey" }));
    if (problem) onProblem(problem);
    const listed = await passkeyAuth.passkey.listUserPasskeys();
    setNames((listed.data ?? []).map((passkey) => passkey.name ?? passkey.id));
    setBusy(false);
  }

  return (
    <section>
      <button type="button" disabled={busy} onClick={add}>
        Add a passkey
      </button>
      {names && <p data-testid="passkeys">Passkeys: {names.join(", ") || "none"}</p>}
    </section>
  );
}

/** Sign in with a passkey; `onSignedIn` refreshes the app's session (passkeyClient does not). */
export function PasskeySignIn({
  onSignedIn,
  onProblem,
}: {
  onSignedIn: () => void;
  onProblem: (message: string | null) => void;
}) {
  const [busy, setBusy] = useState(false);

  async function signIn() {
    setBusy(true);
    onProblem(null);
    const problem = failureOf(await passkeyAuth.signIn.passkey());
    setBusy(false);
    if (problem) return onProblem(problem);
    onSignedIn();
  }

  return (
    <button type="button" disabled={busy} onClick={signIn}>
      Continue with a passkey
    </button>
  );
}
