import { useState } from "react";
import type { AuthClientError } from "../../../src/client/index.ts";
import { apiClient, problemOf, reauthenticateIfStale } from "../api.ts";
import { type AccountFrame, type AccountSection, accountSectionPath, type FormProblem, problemFor } from "../state.ts";
import { Field, HiddenFields } from "./form.tsx";
import { type MessageKey, usePage } from "./page-context.tsx";

// A section of the account page once it is live (account-core's sections): its forms go through the
// published client to the JSON API, and what they did shows in place, without a reload. Without
// JavaScript none of this runs and the same forms post to their page routes.

/** What a form's call came to: a notice of what was done (and the user as now), a problem, or nothing (the page left). */
export type SectionOutcome = { notice: string; user?: Partial<AccountFrame["user"]> } | { problem: FormProblem } | null;

export interface AccountSectionForms {
  account: AccountFrame;
  /** The problem of the last post or call: beside its field, or above the section's forms. */
  problem: FormProblem | null;
  busy: boolean;
  /** The client the calls go through (made on first use: the server renders the page without a window). */
  client: () => ReturnType<typeof apiClient>;
  /**
   * The API refused: a sign-in too old for the change goes through re-authentication and back here (null),
   * anything else is the form's problem, beside the field `fields` names for its code.
   */
  refusal: (error: AuthClientError, fields?: Readonly<Record<string, string>>) => SectionOutcome;
  /** onSubmit of a form: its fields to `send`, then its outcome shown. */
  submit: (
    send: (fields: Record<string, string>, form: HTMLFormElement) => Promise<SectionOutcome>,
  ) => (event: React.FormEvent<HTMLFormElement>) => void;
}

export function useAccountSection(
  section: AccountSection,
  initial: { account: AccountFrame; problem: FormProblem | null },
): AccountSectionForms {
  const { state } = usePage();
  const [account, setAccount] = useState(initial.account);
  const [problem, setProblem] = useState(initial.problem);
  const [busy, setBusy] = useState(false);
  const pages = state.paths.pages;
  const here = `${pages}${accountSectionPath(section)}`;
  const show = (outcome: SectionOutcome) => {
    if (outcome === null) return;
    if ("problem" in outcome) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(null);
    setAccount((current) => ({ ...current, notice: outcome.notice, user: { ...current.user, ...outcome.user } }));
  };
  return {
    account,
    problem,
    busy,
    client: () => apiClient(state.paths.api),
    refusal(error, fields) {
      if (reauthenticateIfStale(error.code, pages, here)) return null;
      const { code } = problemOf(error.code, error.status);
      return { problem: fields ? problemFor(code, fields) : problemFor(code) };
    },
    submit(send) {
      return (event) => {
        event.preventDefault();
        if (busy) return;
        const form = event.currentTarget;
        const fields = Object.fromEntries(
          [...new FormData(form).entries()].map(([key, value]) => [key, String(value)]),
        );
        setBusy(true);
        send(fields, form)
          .then(show)
          .catch(() => setProblem({ code: "unknown" }))
          .finally(() => setBusy(false));
      };
    },
  };
}

/** A form that is one secondary button (send a link again, sign sessions out, sign in again). */
export function ButtonForm(props: {
  action: string;
  label: MessageKey;
  onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
  busy?: boolean;
  children?: React.ReactNode;
}) {
  const { t } = usePage();
  return (
    <form method="post" action={props.action} className="authd-form" onSubmit={props.onSubmit}>
      {props.children}
      <HiddenFields />
      <button type="submit" className="authd-button authd-button-secondary" aria-disabled={props.busy || undefined}>
        {t(props.label)}
      </button>
    </form>
  );
}

/** The account's current password as a proof (deleting the account, re-authenticating). */
export function PasswordProofField({ problem, autoFocus }: { problem: FormProblem | null; autoFocus?: boolean }) {
  return (
    <Field
      name="password"
      label="field.password"
      type="password"
      autoComplete="current-password"
      problem={problem}
      autoFocus={autoFocus}
    />
  );
}
