import { toDay } from "../../shared/dates.ts";
import { type ConsoleClientsState, consoleHref, mayDo } from "../console-state.ts";
import { ClientFields, EMPTY_CLIENT_FORM } from "./client-fields.tsx";
import { useConsole } from "./context.tsx";
import { FormProblemNote, FormProblemSummary, formAnchor } from "./form-notes.tsx";
import { ActionForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// The OpenID clients screen: the registered clients, each linking to its screen, and (for an admin holding
// oauthClient:manage) the form registering another, whose answer shows the new secret once.

export function ConsoleClientsScreen({ state }: { state: ConsoleClientsState }) {
  const { t, frame, state: page } = useConsole();
  const registering = page.problem?.field === "register";
  return (
    <ConsoleShell screen="clients">
      <p className="authd-hint">{t("console.clients.intro")}</p>
      <FormProblemSummary />
      {state.clients.length === 0 ? (
        <p className="authd-text">{t("console.clients.none")}</p>
      ) : (
        <table className="authd-console-table">
          <thead>
            <tr>
              <th scope="col">{t("console.clients.column.client")}</th>
              <th scope="col">{t("console.clients.column.type")}</th>
              <th scope="col">{t("console.clients.column.redirectURIs")}</th>
              <th scope="col">{t("console.clients.column.created")}</th>
            </tr>
          </thead>
          <tbody>
            {state.clients.map((client) => (
              <tr key={client.id}>
                <td>
                  <a href={consoleHref(`/clients/${encodeURIComponent(client.id)}`)}>{client.name}</a>
                  <span className="authd-console-secondary">{t("console.clients.id", { id: client.id })}</span>
                </td>
                <td>{t(client.isPublic ? "console.clients.type.public" : "console.clients.type.confidential")}</td>
                <td>
                  <ul className="authd-console-plain-list">
                    {client.redirectURIs.map((uri) => (
                      <li key={uri}>{uri}</li>
                    ))}
                  </ul>
                </td>
                <td>{toDay(client.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayDo(frame, "oauthClient", "manage") ? (
        <section className="authd-console-part" id={formAnchor("register")} aria-labelledby="authd-register">
          <h2 id="authd-register" className="authd-section-title">
            {t("console.clients.register")}
          </h2>
          <FormProblemNote form="register" />
          <ActionForm
            action="/clients/create"
            label="console.clients.registerButton"
            className="authd-form authd-console-form"
          >
            <ClientFields values={state.form ?? EMPTY_CLIENT_FORM} invalid={registering} registering />
          </ActionForm>
        </section>
      ) : null}
    </ConsoleShell>
  );
}
