import { useId, useState } from "react";
import { errorMessageKey } from "../../shared/messages/index.ts";
import type { FormProblem } from "../state.ts";
import { useLiveValidation } from "./live-validation.ts";
import { type MessageKey, usePage } from "./page-context.tsx";
import { SubmitButton } from "./shell.tsx";

// Form parts every page uses. Without JavaScript a form posts to its page route and the server answers a
// new page; with JavaScript, `onSubmit` sends the same fields to the JSON API and the page changes in
// place. Either way the markup is the same, so hydration finds what the server drew.

/** A problem for the whole form, announced to screen readers as it appears. */
export function ProblemMessage({ problem, id }: { problem: FormProblem | null; id: string }) {
  const { t, state } = usePage();
  return (
    <div id={id} className="authd-problem" role="alert" aria-live="assertive">
      {problem && !problem.field ? t(errorMessageKey(problem.code), { appName: state.branding.appName }) : null}
    </div>
  );
}

interface FieldProps {
  name: string;
  label: MessageKey;
  type?: "text" | "email" | "password" | "url";
  autoComplete: string;
  defaultValue?: string;
  required?: boolean;
  hint?: string;
  problem: FormProblem | null;
  inputMode?: "numeric" | "email" | "text";
  autoFocus?: boolean;
  minLength?: number;
  maxLength?: number;
}

/**
 * A labelled input, its hint and its own error tied to it (aria-describedby, aria-invalid): the server's
 * answer, else (with JavaScript) what the live check found as the field was left, announced as it appears.
 */
export function Field(props: FieldProps) {
  const { t, state } = usePage();
  const id = useId();
  const live = useLiveValidation();
  const answered = props.problem?.field === props.name ? props.problem : null;
  const mine = answered ?? (live.problem ? { code: live.problem, field: props.name } : null);
  const described = [props.hint ? `${id}-hint` : "", mine ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="authd-field">
      <label htmlFor={id} className="authd-label">
        {t(props.label)}
        {props.required === false ? <span className="authd-optional"> ({t("field.optional")})</span> : null}
      </label>
      <input
        id={id}
        name={props.name}
        className="authd-input"
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        required={props.required !== false}
        inputMode={props.inputMode}
        // biome-ignore lint/a11y/noAutofocus: the first field of a one-task page, as the sign-in pages of every browser-based login do
        autoFocus={props.autoFocus}
        minLength={props.minLength}
        maxLength={props.maxLength}
        aria-invalid={mine ? true : undefined}
        aria-describedby={described || undefined}
        onInput={live.onInput}
        onBlur={live.onBlur}
      />
      {props.hint ? (
        <p id={`${id}-hint`} className="authd-hint">
          {props.hint}
        </p>
      ) : null}
      {mine ? (
        <p id={`${id}-error`} className="authd-field-error" role={answered ? undefined : "alert"}>
          {t(errorMessageKey(mine.code), { appName: state.branding.appName })}
        </p>
      ) : null}
    </div>
  );
}

/** A password being chosen: `new-password`, with the configured length rule as its hint and bounds. */
export function NewPasswordField(props: {
  name: string;
  label: MessageKey;
  rules: { min: number; max: number };
  problem: FormProblem | null;
  autoFocus?: boolean;
}) {
  const { t } = usePage();
  return (
    <Field
      name={props.name}
      label={props.label}
      type="password"
      autoComplete="new-password"
      hint={t("field.passwordRules", { min: props.rules.min, max: props.rules.max })}
      minLength={props.rules.min}
      maxLength={props.rules.max}
      problem={props.problem}
      autoFocus={props.autoFocus}
    />
  );
}

/** The hidden fields every page form posts: the anti-forgery token and the return address. */
export function HiddenFields() {
  const { state } = usePage();
  return (
    <>
      <input type="hidden" name="csrf" value={state.csrf} />
      {state.redirect ? <input type="hidden" name="redirect" value={state.redirect} /> : null}
    </>
  );
}

export interface Submission {
  problem: FormProblem | null;
  busy: boolean;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
}

/**
 * With JavaScript: send the form's fields to `send` instead of posting the page, show its problem in place,
 * and keep the button from being pressed twice. Without JavaScript none of this runs.
 */
export function useSubmission(
  initial: FormProblem | null,
  send: (fields: Record<string, string>) => Promise<FormProblem | null>,
): Submission {
  const [problem, setProblem] = useState(initial);
  const [busy, setBusy] = useState(false);
  return {
    problem,
    busy,
    onSubmit(event) {
      event.preventDefault();
      if (busy) return;
      const fields = Object.fromEntries(
        [...new FormData(event.currentTarget).entries()].map(([key, value]) => [key, String(value)]),
      );
      setBusy(true);
      send(fields)
        .then((next) => setProblem(next))
        .catch(() => setProblem({ code: "unknown" }))
        .finally(() => setBusy(false));
    },
  };
}

/** The button of a mailed link's landing page: it posts the link's token (and its callbackURL) to `action`. */
export function LinkTokenForm(props: { action: string; token: string; callbackURL: string | null; label: MessageKey }) {
  return (
    <form method="post" action={props.action} className="authd-form">
      <HiddenFields />
      <input type="hidden" name="token" value={props.token} />
      {props.callbackURL ? <input type="hidden" name="callbackURL" value={props.callbackURL} /> : null}
      <SubmitButton label={props.label} />
    </form>
  );
}
