import { useEffect, useId, useRef } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { errorMessageKey } from "../../shared/messages/index.ts";
import type { RevealedSecret } from "../console-state.ts";
import { useConsole } from "./context.tsx";

// What the two webhooks screens share: the event types as checkboxes (named event:<type>, so a form without
// script posts each one), the refusal of a webhooks form in the console's words, and a secret shown once.

/** The refusals the webhooks screens word themselves; any other code reads as the pages word it. */
const WEBHOOK_REFUSALS = new Set([
  "WEBHOOK_DESTINATION_REFUSED",
  "AT_LEAST_ONE_EVENT_TYPE_IS_REQUIRED",
  "UNKNOWN_WEBHOOK_EVENT_TYPE",
  "WEBHOOK_ENDPOINT_NOT_FOUND",
  "WEBHOOK_ENDPOINT_READ_ONLY",
  "WEBHOOK_ENDPOINT_DISABLED",
  "WEBHOOK_DELIVERY_NOT_FOUND",
  "WEBHOOK_EVENT_NO_LONGER_KEPT",
  "VALIDATION_ERROR",
]);

/** The refusal of the last webhooks form (the frame draws the others), announced as it appears. */
export function WebhookProblem() {
  const { t, state } = useConsole();
  const problem = state.problem?.field === "webhook" ? state.problem : null;
  let text: string | null = null;
  if (problem)
    text = WEBHOOK_REFUSALS.has(problem.code)
      ? t(`console.webhooks.error.${problem.code}` as AnyMessageKey)
      : t(errorMessageKey(problem.code), { appName: state.branding.appName });
  return (
    <div className="authd-problem" role="alert" aria-live="assertive">
      {text}
    </div>
  );
}

/** "All events", or the types joined. */
export function describeEvents(events: string[], allEvents: string): string {
  return events.includes("*") ? allEvents : events.join(", ");
}

/** Every event type an endpoint may ask for, as checkboxes; "*" first, as "All events". */
export function EventPicker({ types, selected }: { types: string[]; selected: string[] }) {
  const { t } = useConsole();
  const id = useId();
  const chosen = new Set(selected);
  return (
    <fieldset className="authd-console-events" aria-describedby={`${id}-hint`}>
      <legend className="authd-label">{t("console.webhooks.field.events")}</legend>
      <p id={`${id}-hint`} className="authd-hint">
        {t("console.webhooks.field.eventsHint")}
      </p>
      <div className="authd-console-event-grid">
        {types.map((type) => (
          <div key={type} className="authd-check">
            <input id={`${id}-${type}`} type="checkbox" name={`event:${type}`} defaultChecked={chosen.has(type)} />
            <label htmlFor={`${id}-${type}`}>{type === "*" ? t("console.webhooks.allEvents") : type}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** The URL field of the add and edit forms. */
export function UrlField({ value }: { value: string }) {
  const { t } = useConsole();
  const id = useId();
  return (
    <div className="authd-field">
      <label htmlFor={id} className="authd-label">
        {t("console.webhooks.field.url")}
      </label>
      <input
        id={id}
        name="url"
        type="url"
        className="authd-input"
        required
        autoComplete="off"
        spellCheck={false}
        defaultValue={value}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="authd-hint">
        {t("console.webhooks.field.urlHint")}
      </p>
    </div>
  );
}

/** A signing secret just made, shown this once, focused and selected so it can be copied at once. */
export function SecretReveal({ revealed }: { revealed: RevealedSecret }) {
  const { t } = useConsole();
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.focus();
  }, []);
  return (
    <section className="authd-secret" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="authd-console-subtitle">
        {t("console.webhooks.secret.title")}
      </h2>
      <p>{t("console.webhooks.secret.explain", { url: revealed.url })}</p>
      <div className="authd-field">
        <label htmlFor={id} className="authd-label">
          {t("console.webhooks.secret.label")}
        </label>
        <input
          ref={field}
          id={id}
          className="authd-input authd-secret-value"
          readOnly
          value={revealed.secret}
          autoComplete="off"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
    </section>
  );
}
