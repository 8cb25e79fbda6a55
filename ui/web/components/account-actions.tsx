import { useState } from "react";
import type { AuthResult } from "../../../src/client/index.ts";
import { go, problemOf, reauthenticateIfStale } from "../api.ts";
import { type AccountSection, accountSectionPath, type FormProblem } from "../state.ts";
import { HiddenFields } from "./form.tsx";
import { type MessageKey, usePage } from "./page-context.tsx";

// With JavaScript, the forms of an account section go through the published client to the JSON API
// instead of posting the page (without it they post to the section's page routes, which call the same
// services). A section has one problem line for all its forms (the last one sent); a refusal because the
// sign-in is too old goes through re-authentication and back to the section.

type Fields = Record<string, string>;

export interface AccountActions {
  problem: FormProblem | null;
  busy: boolean;
  /** A form's submit handler: `call` the API with the form's fields, then `done` with its answer and the form. */
  act<T>(
    call: (fields: Fields) => Promise<AuthResult<T>>,
    done: (data: T, form: HTMLFormElement) => void,
  ): (event: React.FormEvent<HTMLFormElement>) => void;
  /** The section loaded again with a notice: the server draws it as it now is. */
  reload(notice: MessageKey): void;
  /** The section's own path (where re-authentication comes back to). */
  here: string;
}

export function useAccountActions(section: AccountSection): AccountActions {
  const { state } = usePage();
  const [problem, setProblem] = useState(state.problem);
  const [busy, setBusy] = useState(false);
  const here = `${state.paths.pages}${accountSectionPath(section)}`;
  const refused = (error: { code?: string; status: number }) => {
    if (!reauthenticateIfStale(error.code, state.paths.pages, here)) setProblem(problemOf(error.code, error.status));
  };
  return {
    problem,
    busy,
    here,
    act: (call, done) => (event) => {
      event.preventDefault();
      if (busy) return;
      const form = event.currentTarget;
      const fields = Object.fromEntries(
        [...new FormData(form).entries()].map(([name, value]) => [name, String(value)]),
      );
      setBusy(true);
      call(fields)
        .then((answer) => {
          if (answer.error) return refused(answer.error);
          setProblem(null);
          done(answer.data, form);
        })
        .catch(() => setProblem({ code: "unknown" }))
        .finally(() => setBusy(false));
    },
    reload: (notice) => go(`${here}?${new URLSearchParams({ notice })}`),
  };
}

/**
 * One action on one item of a list (Revoke a key, Leave an organization): a form posting the item's ids to
 * `action`, whose button reads `label` and, for screen readers, names the item ("Revoke (ci-key)").
 */
export function ItemForm(props: {
  action: string;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  fields: Record<string, string>;
  label: MessageKey;
  item: string;
  busy: boolean;
  secondary?: boolean;
}) {
  const { t } = usePage();
  return (
    <form method="post" action={props.action} onSubmit={props.onSubmit}>
      <HiddenFields />
      {Object.entries(props.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={props.secondary === false ? "authd-button" : "authd-button authd-button-secondary"}
        aria-disabled={props.busy || undefined}
      >
        {t(props.label)}
        <span className="authd-visually-hidden">{` (${props.item})`}</span>
      </button>
    </form>
  );
}
