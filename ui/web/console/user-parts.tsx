import { useId } from "react";
import { toMinute } from "../../shared/dates.ts";
import type { AnyMessageKey, ConsoleTranslate } from "../../shared/messages/console.ts";
import type { ConsoleUserState } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ActionForm } from "./parts.tsx";

// The pieces of a user's screen: its sections, a list of facts, the forms (each posting to
// /console/users/:id/<verb>, with its own problem drawn beside it) and their fields. Every value from the
// database is React text.

export const userState = (state: unknown) => state as ConsoleUserState;

/** "2026-11-23 15:20 UTC", or the given word for none. */
export const minute = (iso: string | null, none: string): string => (iso ? `${toMinute(iso)} UTC` : none);

/** "15 minutes", "1 hour", "7 days": a length of time in seconds, in whole units. */
export function duration(t: ConsoleTranslate, seconds: number): string {
  if (seconds % 86_400 === 0) {
    const count = seconds / 86_400;
    return t(count === 1 ? "console.user.duration.day" : "console.user.duration.days", { count });
  }
  if (seconds % 3600 === 0) {
    const count = seconds / 3600;
    return t(count === 1 ? "console.user.duration.hour" : "console.user.duration.hours", { count });
  }
  const count = Math.round(seconds / 60);
  return t(count === 1 ? "console.user.duration.minute" : "console.user.duration.minutes", { count });
}

export function Section({ id, title, children }: { id: string; title: AnyMessageKey; children: React.ReactNode }) {
  const { t } = useConsole();
  return (
    <section className="authd-console-section" aria-labelledby={`authd-user-${id}`}>
      <h2 id={`authd-user-${id}`} className="authd-console-heading">
        {t(title)}
      </h2>
      {children}
    </section>
  );
}

/** Label and value pairs. */
export function Facts({ rows }: { rows: (readonly [AnyMessageKey, React.ReactNode])[] }) {
  const { t } = useConsole();
  return (
    <dl className="authd-console-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{t(label)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The problem of the form named `form`, when the last post of it had one. */
function FormProblemText({ form }: { form: string }) {
  const { t, state } = useConsole();
  const problem = state.problem?.field === form ? state.problem : null;
  if (!problem) return null;
  return (
    <p className="authd-console-problem" role="alert">
      {t(problem.code as AnyMessageKey)}
    </p>
  );
}

/** A form acting on the user: posts to /console/users/:id/<verb>; `form` names it for its problem. */
export function UserForm({
  verb,
  form,
  label,
  fields,
  danger,
  children,
}: {
  verb: string;
  form: string;
  label: AnyMessageKey;
  fields?: Record<string, string>;
  danger?: boolean;
  children?: React.ReactNode;
}) {
  const { state } = useConsole();
  const { user } = userState(state);
  return (
    <ActionForm
      action={`/users/${encodeURIComponent(user.id)}/${verb}`}
      fields={fields}
      label={label}
      danger={danger}
      className="authd-console-form"
    >
      <FormProblemText form={form} />
      {children}
    </ActionForm>
  );
}

/** A box to tick; the form sends `name=yes` when it is ticked. */
export function Check({ name, label, required }: { name: string; label: AnyMessageKey; required?: boolean }) {
  const { t } = useConsole();
  const id = useId();
  return (
    <p className="authd-console-confirm">
      <input id={id} type="checkbox" name={name} value="yes" required={required} />
      <label htmlFor={id}>{t(label)}</label>
    </p>
  );
}

/** The box a destructive form needs ticked (the server checks it too). */
export const ConfirmBox = () => <Check name="confirm" label="console.user.confirm" required />;

export function Input({
  name,
  label,
  hint,
  type = "text",
  required,
  maxLength,
  inputMode,
  autoComplete = "off",
}: {
  name: string;
  label: AnyMessageKey;
  hint?: AnyMessageKey;
  type?: "text" | "email" | "password";
  required?: boolean;
  maxLength?: number;
  inputMode?: "numeric";
  autoComplete?: string;
}) {
  const { t } = useConsole();
  const id = useId();
  return (
    <p className="authd-console-field">
      <label htmlFor={id} className="authd-label">
        {t(label)}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        className="authd-input"
        required={required}
        maxLength={maxLength}
        inputMode={inputMode}
        autoComplete={autoComplete}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <span id={`${id}-hint`} className="authd-hint">
          {t(hint)}
        </span>
      ) : null}
    </p>
  );
}

export function Choice({
  name,
  label,
  options,
  value,
}: {
  name: string;
  label: AnyMessageKey;
  options: [string, string][];
  value?: string;
}) {
  const { t } = useConsole();
  const id = useId();
  return (
    <p className="authd-console-field">
      <label htmlFor={id} className="authd-label">
        {t(label)}
      </label>
      <select id={id} name={name} className="authd-input" defaultValue={value}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </p>
  );
}
