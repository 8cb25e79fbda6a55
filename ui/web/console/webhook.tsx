import { useId } from "react";
import { toMinute } from "../../shared/dates.ts";
import {
  type ConsoleWebhookAttempt,
  type ConsoleWebhookEndpoint,
  type ConsoleWebhookState,
  consoleHref,
  mayDo,
} from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ActionForm, Pager } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";
import { describeEvents, EventPicker, SecretReveal, UrlField, WebhookProblem } from "./webhook-parts.tsx";

// One webhook endpoint (/console/webhooks/:id): what it is, its delivery log, newest first, all entries or
// the failed ones, each with a resend (webhook:resend) while the endpoint is enabled, and its edit, rotate
// and remove forms (for an endpoint added here; one from the config file is changed there).

function Facts({ endpoint }: { endpoint: ConsoleWebhookEndpoint }) {
  const { t } = useConsole();
  return (
    <dl className="authd-console-facts">
      <dt>{t("console.webhooks.detail.id")}</dt>
      <dd>{endpoint.id}</dd>
      <dt>{t("console.webhooks.column.events")}</dt>
      <dd>{describeEvents(endpoint.events, t("console.webhooks.allEvents"))}</dd>
      <dt>{t("console.webhooks.detail.origin")}</dt>
      <dd>{endpoint.origin === "config" ? t("console.webhooks.origin.config") : t("console.webhooks.origin.cli")}</dd>
      <dt>{t("console.webhooks.column.status")}</dt>
      <dd>
        {endpoint.disabled ? t("console.webhooks.status.disabled") : t("console.webhooks.status.enabled")}
        {endpoint.previousSecretExpiresAt ? (
          <span className="authd-console-secondary">
            {t("console.webhooks.graceUntil", { time: toMinute(endpoint.previousSecretExpiresAt) ?? "" })}
          </span>
        ) : null}
      </dd>
      <dt>{t("console.webhooks.detail.created")}</dt>
      <dd>{toMinute(endpoint.createdAt)}</dd>
    </dl>
  );
}

function EditSection({ state }: { state: ConsoleWebhookState }) {
  const { t } = useConsole();
  const { endpoint } = state;
  const path = `/webhooks/${encodeURIComponent(endpoint.id)}`;
  const id = useId();
  if (endpoint.origin === "config") return <p className="authd-hint">{t("console.webhooks.edit.readOnly")}</p>;
  return (
    <>
      <section aria-labelledby={`${id}-edit`}>
        <h2 id={`${id}-edit`} className="authd-console-subtitle">
          {t("console.webhooks.edit.title")}
        </h2>
        <ActionForm action={`${path}/update`} label="console.webhooks.edit.submit" className="authd-console-form">
          <UrlField value={state.form?.url ?? endpoint.url} />
          <EventPicker types={state.eventTypes} selected={state.form?.events ?? endpoint.events} />
        </ActionForm>
      </section>
      <RotateSection endpoint={endpoint} />
      <section aria-labelledby={`${id}-remove`}>
        <h2 id={`${id}-remove`} className="authd-console-subtitle">
          {t("console.webhooks.remove.title")}
        </h2>
        <p className="authd-hint">{t("console.webhooks.remove.explain")}</p>
        <ActionForm action={`${path}/remove`} label="console.webhooks.remove.submit" danger>
          <div className="authd-check">
            <input id={`${id}-confirm`} type="checkbox" name="confirm" required />
            <label htmlFor={`${id}-confirm`}>{t("console.webhooks.remove.confirm")}</label>
          </div>
        </ActionForm>
      </section>
    </>
  );
}

const GRACES = ["24h", "1h", "7d", "0"] as const;

/** A new signing secret, the old one signing beside it for the grace chosen (docs/events.md). */
function RotateSection({ endpoint }: { endpoint: ConsoleWebhookEndpoint }) {
  const { t } = useConsole();
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="authd-console-subtitle">
        {t("console.webhooks.rotate.title")}
      </h2>
      <p className="authd-hint">{t("console.webhooks.rotate.explain")}</p>
      <ActionForm
        action={`/webhooks/${encodeURIComponent(endpoint.id)}/rotate-secret`}
        label="console.webhooks.action.rotate"
      >
        <div className="authd-field">
          <label htmlFor={id} className="authd-label">
            {t("console.webhooks.grace.label")}
          </label>
          <select id={id} name="grace" className="authd-input" defaultValue="24h">
            {GRACES.map((grace) => (
              <option key={grace} value={grace}>
                {t(`console.webhooks.grace.${grace}`)}
              </option>
            ))}
          </select>
        </div>
      </ActionForm>
    </section>
  );
}

function AttemptRow({ attempt, resend }: { attempt: ConsoleWebhookAttempt; resend: string | null }) {
  const { t } = useConsole();
  return (
    <tr className={attempt.ok ? undefined : "authd-console-failed"}>
      <td>{toMinute(attempt.attemptedAt)}</td>
      <td>
        {attempt.eventType}
        {attempt.eventId ? <span className="authd-console-secondary">{attempt.eventId}</span> : null}
      </td>
      <td>{t(`console.webhooks.log.by.${attempt.trigger}`)}</td>
      <td>{t("console.webhooks.log.bytes", { bytes: attempt.requestBytes })}</td>
      <td>
        {attempt.status === null ? t("console.webhooks.log.noAnswer") : `HTTP ${attempt.status}`}
        <span className="authd-console-secondary">
          {attempt.ok ? t("console.webhooks.log.delivered") : t("console.webhooks.log.notDelivered")}
        </span>
      </td>
      <td>{t("console.webhooks.log.ms", { ms: attempt.durationMs })}</td>
      <td>{attempt.error ?? ""}</td>
      {resend === null ? null : (
        <td>
          <ActionForm action={resend} fields={{ deliveryId: attempt.id }} label="console.webhooks.log.resend" />
        </td>
      )}
    </tr>
  );
}

function DeliveryLog({ state }: { state: ConsoleWebhookState }) {
  const { t, frame } = useConsole();
  const { endpoint, query } = state;
  const path = `/webhooks/${encodeURIComponent(endpoint.id)}`;
  const resend = mayDo(frame, "webhook", "resend") && !endpoint.disabled ? `${path}/resend` : null;
  return (
    <section aria-labelledby="authd-webhook-log">
      <h2 id="authd-webhook-log" className="authd-console-subtitle">
        {t("console.webhooks.log.title")}
      </h2>
      <p className="authd-hint">{t("console.webhooks.log.explain")}</p>
      <nav className="authd-console-filter" aria-label={t("console.webhooks.log.filter")}>
        <a href={consoleHref(path)} aria-current={query.failed ? undefined : "page"}>
          {t("console.webhooks.log.all")}
        </a>
        <a href={consoleHref(path, { failed: 1 })} aria-current={query.failed ? "page" : undefined}>
          {t("console.webhooks.log.failed")}
        </a>
      </nav>
      {state.attempts.length === 0 ? (
        <p>{query.failed ? t("console.webhooks.log.noneFailed") : t("console.webhooks.log.none")}</p>
      ) : (
        <table className="authd-console-table authd-console-webhooks">
          <thead>
            <tr>
              <th scope="col">{t("console.webhooks.log.column.when")}</th>
              <th scope="col">{t("console.webhooks.log.column.event")}</th>
              <th scope="col">{t("console.webhooks.log.column.by")}</th>
              <th scope="col">{t("console.webhooks.log.column.size")}</th>
              <th scope="col">{t("console.webhooks.log.column.answer")}</th>
              <th scope="col">{t("console.webhooks.log.column.time")}</th>
              <th scope="col">{t("console.webhooks.log.column.error")}</th>
              {resend === null ? null : <th scope="col">{t("console.actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {state.attempts.map((attempt) => (
              <AttemptRow key={attempt.id} attempt={attempt} resend={resend} />
            ))}
          </tbody>
        </table>
      )}
      {state.total > 0 ? (
        <Pager
          path={path}
          total={state.total}
          offset={query.offset}
          limit={query.limit}
          params={query.failed ? { failed: "1" } : {}}
        />
      ) : null}
    </section>
  );
}

export function ConsoleWebhookScreen({ state }: { state: ConsoleWebhookState }) {
  const { t, frame } = useConsole();
  return (
    <ConsoleShell screen="webhooks" title={state.endpoint.url}>
      <p>
        <a href={consoleHref("/webhooks")}>{t("console.webhooks.back")}</a>
      </p>
      <WebhookProblem />
      {state.revealed ? <SecretReveal revealed={state.revealed} /> : null}
      <Facts endpoint={state.endpoint} />
      <DeliveryLog state={state} />
      {mayDo(frame, "webhook", "manage") ? <EditSection state={state} /> : null}
    </ConsoleShell>
  );
}
