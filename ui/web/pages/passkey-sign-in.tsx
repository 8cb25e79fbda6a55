import { useEffect, useRef, useState } from "react";
import { apiClient, go } from "../api.ts";
import { usePage } from "../components/page-context.tsx";
import { autofillSupported, type PasskeyOutcome, passkeysSupported, signInWithPasskey } from "../passkey.ts";
import type { FormProblem, StateOf } from "../state.ts";

// The sign-in page's passkeys, with JavaScript only (WebAuthn is a script API): a button that asks the
// browser for a passkey at once, and the identifier field's autofill (conditional mediation), which waits
// for the person to pick a passkey from the suggestions. Only one browser request runs at a time: the
// button and a password submit abort the autofill's. Without JavaScript (or WebAuthn) nothing is shown.

export interface PasskeySignIn {
  /** Hydrated in a browser that has WebAuthn, with passkeys on: the button is shown. */
  available: boolean;
  busy: boolean;
  problem: FormProblem | null;
  /** The button: abort the autofill's request and ask for a passkey now. */
  start: () => void;
  /** The password form is being sent: abort the autofill's request and forget a passkey problem. */
  stop: () => void;
}

export function usePasskeySignIn(state: StateOf<"sign-in">): PasskeySignIn {
  const [available, setAvailable] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const autofill = useRef<AbortController | null>(null);
  const finish = (outcome: PasskeyOutcome) => {
    if (outcome.kind === "signed-in") go(state.redirect ?? state.home);
    else if (outcome.kind === "problem") setProblem(outcome.problem);
  };
  const stopAutofill = () => {
    autofill.current?.abort();
    autofill.current = null;
  };

  // The autofill's request waits for a pick; only a picked passkey that authd refused is worth saying
  // anything about (the person asked nothing otherwise), and then the field listens again for the next pick
  // (a challenge that expired while the page waited is one such refusal).
  const listen = () => {
    const controller = new AbortController();
    autofill.current = controller;
    signInWithPasskey(apiClient(state.paths.api), controller.signal, "conditional")
      .then((outcome) => {
        if (outcome.kind === "problem" && !outcome.picked) return;
        finish(outcome);
        if (outcome.kind === "problem" && autofill.current === controller) listen();
      })
      .catch(() => {});
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, after hydration; the state never changes
  useEffect(() => {
    if (!state.methods.passkey || !passkeysSupported()) return;
    setAvailable(true);
    let live = true;
    void autofillSupported().then((supported) => {
      if (supported && live) listen();
    });
    return () => {
      live = false;
      stopAutofill();
    };
  }, []);

  return {
    available,
    busy,
    problem,
    start() {
      if (busy) return;
      stopAutofill();
      setProblem(null);
      setBusy(true);
      signInWithPasskey(apiClient(state.paths.api), new AbortController().signal)
        .then((outcome) => {
          finish(outcome);
          if (outcome.kind !== "signed-in") setBusy(false);
        })
        .catch(() => {
          setProblem({ code: "PASSKEY_FAILED" });
          setBusy(false);
        });
    },
    stop() {
      stopAutofill();
      setProblem(null);
    },
  };
}

/** The button, drawn once the page is live and passkeys can work (never in the server's HTML). */
export function PasskeyButton({ passkey }: { passkey: PasskeySignIn }) {
  const { t } = usePage();
  if (!passkey.available) return null;
  return (
    <button
      type="button"
      className="authd-button authd-button-secondary authd-passkey"
      onClick={passkey.start}
      aria-disabled={passkey.busy || undefined}
    >
      {t("action.signInWithPasskey")}
    </button>
  );
}
