import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { useConsole } from "./context.tsx";

// The problem of one form among many on a screen (a member's row, a key's row): said once at the top, where a
// screen reader and the eye start, with a link down to the form, and again beside the form itself. The
// problem's field names the form (form-problems.ts on the server); its code is a console message.

/** The id a form's row carries, so the summary can link to it. */
export const formAnchor = (form: string): string => `authd-form-${form}`;

/** The problem of whichever form of this screen has one, at the top of the screen. */
export function FormProblemSummary() {
  const { t, state } = useConsole();
  const problem = state.problem?.field ? state.problem : null;
  if (!problem) return null;
  return (
    <div className="authd-console-problem" role="alert">
      <a href={`#${formAnchor(problem.field ?? "")}`}>{t(problem.code as AnyMessageKey)}</a>
    </div>
  );
}

/** The problem of the form `form`, beside it, when it has one. */
export function FormProblemNote({ form }: { form: string }) {
  const { t, state } = useConsole();
  if (state.problem?.field !== form) return null;
  return <p className="authd-problem-text">{t(state.problem.code as AnyMessageKey)}</p>;
}

/** The "I am sure" box of a form whose action cannot be undone: the browser asks for it, the server too. */
export function ConfirmBox({ label }: { label: string }) {
  const id = useId();
  return (
    <span className="authd-check authd-console-confirm">
      <input id={id} type="checkbox" name="confirm" value="yes" required />
      <label htmlFor={id}>{label}</label>
    </span>
  );
}
