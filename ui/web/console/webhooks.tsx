import { toMinute } from "../../shared/dates.ts";
import { type ConsoleWebhookEndpoint, type ConsoleWebhooksState, consoleHref, mayDo } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ActionForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";
import { describeEvents, EventPicker, SecretReveal, UrlField, WebhookProblem } from "./webhook-parts.tsx";

// The webhooks screen (/console/webhooks): every endpoint with where it posts, what it asks for, whether it
// is paused, its delivery counts and last attempt, and (for an admin holding webhook:manage) the forms to
// send a test, pause or resume it, and add an endpoint (its secret then shown once). Its own screen edits,
// rotates and removes it.

function LastAttempt({ endpoint }: { endpoint: ConsoleWebhookEndpoint }) {
  const { t } = useConsole();
  const last = endpoint.lastAttempt;
  if (!last) return <>{t("console.webhooks.last.none")}</>;
  const time = toMinute(last.at) ?? "";
  return (
    <>
      {last.error
        ? t("console.webhooks.last.failed", { time, error: last.error })
        : t("console.webhooks.last.ok", { time, status: last.status ?? "" })}
    </>
  );
}

function EndpointActions({ endpoint }: { endpoint: ConsoleWebhookEndpoint }) {
  const path = `/webhooks/${encodeURIComponent(endpoint.id)}`;
  return (
    <div className="authd-console-row-actions">
      <ActionForm action={`${path}/test`} label="console.webhooks.action.test" />
      {endpoint.disabled ? (
        <ActionForm action={`${path}/enable`} label="console.webhooks.action.enable" />
      ) : (
        <ActionForm action={`${path}/disable`} label="console.webhooks.action.disable" />
      )}
    </div>
  );
}

function EndpointRow({ endpoint, manage }: { endpoint: ConsoleWebhookEndpoint; manage: boolean }) {
  const { t } = useConsole();
  const { pending, delivered, failed } = endpoint.deliveries;
  return (
    <tr>
      <td>
        <a href={consoleHref(`/webhooks/${encodeURIComponent(endpoint.id)}`)}>{endpoint.url}</a>
        <span className="authd-console-secondary">{endpoint.id}</span>
        {endpoint.origin === "config" ? (
          <span className="authd-console-secondary">{t("console.webhooks.fromConfig")}</span>
        ) : null}
      </td>
      <td>{describeEvents(endpoint.events, t("console.webhooks.allEvents"))}</td>
      <td>
        {endpoint.disabled ? t("console.webhooks.status.disabled") : t("console.webhooks.status.enabled")}
        {endpoint.previousSecretExpiresAt ? (
          <span className="authd-console-secondary">
            {t("console.webhooks.graceUntil", { time: toMinute(endpoint.previousSecretExpiresAt) ?? "" })}
          </span>
        ) : null}
      </td>
      <td>{t("console.webhooks.deliveries", { pending, delivered, failed })}</td>
      <td>
        <LastAttempt endpoint={endpoint} />
      </td>
      {manage ? (
        <td>
          <EndpointActions endpoint={endpoint} />
        </td>
      ) : null}
    </tr>
  );
}

export function ConsoleWebhooksScreen({ state }: { state: ConsoleWebhooksState }) {
  const { t, frame } = useConsole();
  const manage = mayDo(frame, "webhook", "manage");
  return (
    <ConsoleShell screen="webhooks">
      <WebhookProblem />
      {state.revealed ? <SecretReveal revealed={state.revealed} /> : null}
      <section aria-labelledby="authd-webhooks-endpoints">
        <h2 id="authd-webhooks-endpoints" className="authd-console-subtitle">
          {t("console.webhooks.endpoints")}
        </h2>
        {state.endpoints.length === 0 ? (
          <p>{t("console.webhooks.none")}</p>
        ) : (
          <table className="authd-console-table authd-console-webhooks">
            <thead>
              <tr>
                <th scope="col">{t("console.webhooks.column.endpoint")}</th>
                <th scope="col">{t("console.webhooks.column.events")}</th>
                <th scope="col">{t("console.webhooks.column.status")}</th>
                <th scope="col">{t("console.webhooks.column.deliveries")}</th>
                <th scope="col">{t("console.webhooks.column.last")}</th>
                {manage ? <th scope="col">{t("console.actions")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {state.endpoints.map((endpoint) => (
                <EndpointRow key={endpoint.id} endpoint={endpoint} manage={manage} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {manage ? (
        <section aria-labelledby="authd-webhooks-add">
          <h2 id="authd-webhooks-add" className="authd-console-subtitle">
            {t("console.webhooks.add.title")}
          </h2>
          <ActionForm action="/webhooks/create" label="console.webhooks.add.submit" className="authd-console-form">
            <UrlField value={state.form?.url ?? ""} />
            <EventPicker types={state.eventTypes} selected={state.form?.events ?? []} />
          </ActionForm>
        </section>
      ) : null}
    </ConsoleShell>
  );
}
