import { useId } from "react";
import { toDay } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { type ConsoleClientRow, type ConsoleClientState, consoleHref, mayDo } from "../console-state.ts";
import { ClientFields } from "./client-fields.tsx";
import { useConsole } from "./context.tsx";
import { ConfirmBox, FormProblemNote, FormProblemSummary, formAnchor } from "./form-notes.tsx";
import { ActionForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// One OpenID client: its registration; the secret a form just made (shown this once); and, for an admin
// holding oauthClient:manage, the forms changing it, giving it a new secret and removing it.

export function ConsoleClientScreen({ state }: { state: ConsoleClientState }) {
  const { t, frame } = useConsole();
  const { client } = state;
  const manage = mayDo(frame, "oauthClient", "manage");
  return (
    <ConsoleShell screen="clients" title={client.name}>
      <p className="authd-hint">
        <a href={consoleHref("/clients")}>{t("console.clients.back")}</a>
      </p>
      <FormProblemSummary />
      {state.secret ? <SecretOnce secret={state.secret} /> : null}
      <Registration client={client} />
      {manage ? <ChangeForm state={state} /> : null}
      {manage && !client.isPublic ? (
        <DangerForm form="rotate" client={client} title="console.clients.rotate" hint="console.clients.rotateHint">
          <ConfirmBox label={t("console.clients.confirmRotate", { name: client.name })} />
        </DangerForm>
      ) : null}
      {manage ? (
        <DangerForm form="delete" client={client} title="console.clients.delete" hint="console.clients.deleteHint">
          <ConfirmBox label={t("console.clients.confirmDelete", { name: client.name })} />
        </DangerForm>
      ) : null}
    </ConsoleShell>
  );
}

const clientPath = (client: ConsoleClientRow, action: string) => `/clients/${encodeURIComponent(client.id)}/${action}`;

function SecretOnce({ secret }: { secret: string }) {
  const { t } = useConsole();
  const id = useId();
  return (
    <section className="authd-notice authd-console-secret" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="authd-section-title">
        {t("console.clients.secretTitle")}
      </h2>
      <p>{t("console.clients.secretHint")}</p>
      <label htmlFor={id} className="authd-label">
        {t("console.clients.secretLabel")}
      </label>
      <input
        id={id}
        className="authd-input authd-console-code"
        type="text"
        readOnly
        value={secret}
        spellCheck={false}
      />
    </section>
  );
}

function Registration({ client }: { client: ConsoleClientRow }) {
  const { t } = useConsole();
  const rows: [AnyMessageKey, React.ReactNode][] = [
    [
      "console.clients.column.type",
      t(client.isPublic ? "console.clients.type.public" : "console.clients.type.confidential"),
    ],
    ["console.clients.field.redirectURIs", <UriList key="redirect" uris={client.redirectURIs} />],
    ["console.clients.field.postLogoutRedirectURIs", <UriList key="logout" uris={client.postLogoutRedirectURIs} />],
    ["console.clients.field.backchannelLogoutURI", client.backchannelLogoutURI ?? t("console.none")],
    ["console.clients.field.idTokenAlg", client.idTokenAlg],
    [
      "console.clients.consent",
      t(client.skipConsent ? "console.clients.consent.skipped" : "console.clients.consent.asked"),
    ],
    ["console.clients.column.created", toDay(client.createdAt)],
  ];
  return (
    <section className="authd-console-part" aria-labelledby="authd-registration">
      <h2 id="authd-registration" className="authd-section-title">
        {t("console.clients.details")}
      </h2>
      <p className="authd-hint">{t("console.clients.id", { id: client.id })}</p>
      <dl className="authd-console-fields">
        {rows.map(([label, value]) => (
          <div key={label} className="authd-console-field">
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function UriList({ uris }: { uris: string[] }) {
  const { t } = useConsole();
  if (uris.length === 0) return <>{t("console.none")}</>;
  return (
    <ul className="authd-console-plain-list">
      {uris.map((uri) => (
        <li key={uri}>{uri}</li>
      ))}
    </ul>
  );
}

function ChangeForm({ state }: { state: ConsoleClientState }) {
  const { t, state: page } = useConsole();
  const { client } = state;
  const values = state.form ?? {
    name: client.name,
    redirectURIs: client.redirectURIs.join(" "),
    postLogoutRedirectURIs: client.postLogoutRedirectURIs.join(" "),
    backchannelLogoutURI: client.backchannelLogoutURI ?? "",
    skipConsent: client.skipConsent,
    isPublic: client.isPublic,
    idTokenAlg: client.idTokenAlg,
  };
  return (
    <section className="authd-console-part" id={formAnchor("update")} aria-labelledby="authd-change">
      <h2 id="authd-change" className="authd-section-title">
        {t("console.clients.edit")}
      </h2>
      <FormProblemNote form="update" />
      <ActionForm
        action={clientPath(client, "update")}
        label="console.clients.save"
        className="authd-form authd-console-form"
      >
        <ClientFields values={values} invalid={page.problem?.field === "update"} />
      </ActionForm>
    </section>
  );
}

function DangerForm({
  form,
  client,
  title,
  hint,
  children,
}: {
  form: "rotate" | "delete";
  client: ConsoleClientRow;
  title: AnyMessageKey;
  hint: AnyMessageKey;
  children: React.ReactNode;
}) {
  const { t } = useConsole();
  return (
    <section className="authd-console-part" id={formAnchor(form)} aria-labelledby={`authd-${form}`}>
      <h2 id={`authd-${form}`} className="authd-section-title">
        {t(title)}
      </h2>
      <p className="authd-hint">{t(hint)}</p>
      <FormProblemNote form={form} />
      <ActionForm action={clientPath(client, form === "rotate" ? "rotate-secret" : "delete")} label={title} danger>
        {children}
      </ActionForm>
    </section>
  );
}
