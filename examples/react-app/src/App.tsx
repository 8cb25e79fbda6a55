import { type FormEvent, useState } from "react";
import { authClient, betterAuthClient, sessionChanged, twoFactorRedirect } from "./auth-client.ts";
import { AddPasskey, PasskeySignIn } from "./Passkeys.tsx";
import { EnableTwoFactor, TwoFactorChallenge } from "./TwoFactor.tsx";

// One page: sign up (or in) with email and password or a passkey, see the session useSession() holds, turn
// two-factor on, add a passkey, sign out. Password sign-in goes through Better Auth's client, whose
// twoFactorClient reports a sign-in that needs the second factor (onTwoFactorRedirect): the page then asks
// for a code.

export function App() {
  const { data, error, isPending, refetch } = authClient.useSession();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  twoFactorRedirect.handler = () => setNeedsCode(true);

  async function run(call: () => Promise<{ error: { message?: string } | null }>) {
    setBusy(true);
    setProblem(null);
    const result = await call();
    setBusy(false);
    if (result.error) setProblem(result.error.message ?? "Something went wrong");
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email"));
    const password = String(form.get("password"));
    const mode = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value");
    if (mode === "sign-in")
      return run(async () => {
        const result = await betterAuthClient.signIn.email({ email, password });
        if (!result.error) sessionChanged();
        return result;
      });
    return run(() => authClient.signUp.email({ name: String(form.get("name")), email, password }));
  }

  if (isPending) return <p data-testid="status">Loading…</p>;

  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 420, margin: "3rem auto" }}>
      <h1>authd example</h1>
      {error && <p role="alert">Session unavailable: {error.message ?? error.status}</p>}
      {data ? (
        <section>
          <p data-testid="status">
            Signed in as <strong data-testid="user-email">{data.user.email}</strong>
          </p>
          <dl>
            <dt>Name</dt>
            <dd data-testid="user-name">{data.user.name}</dd>
            <dt>Session expires</dt>
            <dd data-testid="session-expires">{data.session.expiresAt.toLocaleString()}</dd>
          </dl>
          <EnableTwoFactor enabled={data.user.twoFactorEnabled === true} />
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              setNeedsCode(false);
              return run(() => authClient.signOut());
            }}
          >
            Sign out
          </button>
          <AddPasskey onProblem={setProblem} />
        </section>
      ) : needsCode ? (
        <TwoFactorChallenge onCancel={() => setNeedsCode(false)} />
      ) : (
        <form onSubmit={submit}>
          <p data-testid="status">Signed out</p>
          <label>
            Name <input name="name" autoComplete="name" />
          </label>
          <br />
          <label>
            Email <input name="email" type="email" required autoComplete="email" />
          </label>
          <br />
          <label>
            Password <input name="password" type="password" required minLength={8} autoComplete="new-password" />
          </label>
          <br />
          <button type="submit" value="sign-up" disabled={busy}>
            Sign up
          </button>{" "}
          <button type="submit" value="sign-in" disabled={busy}>
            Sign in
          </button>{" "}
          <PasskeySignIn onSignedIn={() => void refetch()} onProblem={setProblem} />
        </form>
      )}
      {problem && <p role="alert">{problem}</p>}
    </main>
  );
}
