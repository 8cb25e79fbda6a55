import { type FormEvent, useState } from "react";
import { betterAuthClient, sessionChanged } from "./auth-client.ts";

// The two-factor screens, on Better Auth's twoFactorClient: turning it on (password, then the first code
// from the authenticator app) and the second step of a sign-in (a code, or a backup code).

type Result = { error: { message?: string } | null };

function useCall() {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(call: () => Promise<Result>): Promise<boolean> {
    setBusy(true);
    setProblem(null);
    const result = await call();
    setBusy(false);
    if (result.error) setProblem(result.error.message ?? "Something went wrong");
    return !result.error;
  }
  return { problem, busy, run };
}

const field = (event: FormEvent<HTMLFormElement>, name: string) => String(new FormData(event.currentTarget).get(name));

export function EnableTwoFactor({ enabled }: { enabled: boolean }) {
  const { problem, busy, run } = useCall();
  const [totpURI, setTotpURI] = useState<string | null>(null);
  const [backupCodes, setBackupCodes] = useState<string[]>([]);

  if (enabled) return <p data-testid="two-factor-status">Two-factor is on</p>;

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = field(event, "password");
    await run(async () => {
      const result = await betterAuthClient.twoFactor.enable({ password });
      if (result.data) {
        setTotpURI(result.data.totpURI);
        setBackupCodes(result.data.backupCodes);
      }
      return result;
    });
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = field(event, "code");
    if (await run(() => betterAuthClient.twoFactor.verifyTotp({ code }))) sessionChanged();
  }

  return (
    <section>
      <h2>Two-factor authentication</h2>
      {totpURI ? (
        <form onSubmit={confirm}>
          <p>Add this to your authenticator app, then enter its code:</p>
          <code data-testid="totp-uri">{totpURI}</code>
          <p>Backup codes (keep them safe): {backupCodes.join(" ")}</p>
          <label>
            Code <input name="code" inputMode="numeric" autoComplete="one-time-code" required />
          </label>{" "}
          <button type="submit" disabled={busy}>
            Turn on
          </button>
        </form>
      ) : (
        <form onSubmit={start}>
          <label>
            Password <input name="password" type="password" required autoComplete="current-password" />
          </label>{" "}
          <button type="submit" disabled={busy}>
            Enable two-factor
          </button>
        </form>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}

export function TwoFactorChallenge({ onCancel }: { onCancel: () => void }) {
  const { problem, busy, run } = useCall();

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = field(event, "code").trim();
    const trustDevice = new FormData(event.currentTarget).get("trust") === "on";
    // A backup code is written xxxxx-xxxxx; an authenticator code is 6 digits.
    const call = code.includes("-")
      ? () => betterAuthClient.twoFactor.verifyBackupCode({ code, trustDevice })
      : () => betterAuthClient.twoFactor.verifyTotp({ code, trustDevice });
    if (await run(call)) sessionChanged();
  }

  return (
    <form onSubmit={verify}>
      <p data-testid="status">Two-factor code required</p>
      <label>
        Authentication code <input name="code" autoComplete="one-time-code" required />
      </label>
      <br />
      <label>
        <input name="trust" type="checkbox" /> Trust this browser for 30 days
      </label>
      <br />
      <button type="submit" disabled={busy}>
        Verify
      </button>{" "}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {problem && <p role="alert">{problem}</p>}
    </form>
  );
}
