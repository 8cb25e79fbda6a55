import { toMinute } from "../../shared/dates.ts";
import type { ConsoleDependency, ConsoleSetting, ConsoleSettingsState } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { SearchForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// The settings screen (/console/settings): the health of each dependency, checked as it was drawn, and the
// configuration in effect, read-only, every secret masked on the server (a secret never reaches this page).

function HealthDetail({ dependency }: { dependency: ConsoleDependency }) {
  const { t } = useConsole();
  const lines: string[] = [];
  if (dependency.latencyMs !== null) lines.push(t("console.settings.health.latency", { ms: dependency.latencyMs }));
  if (dependency.name === "webhookWorker") {
    if (dependency.status === "off") lines.push(t("console.settings.health.workerOff"));
    if (dependency.reason === "failing")
      lines.push(t("console.settings.health.reason.failing", { error: dependency.error ?? "" }));
    else if (dependency.reason) lines.push(t(`console.settings.health.reason.${dependency.reason}`));
    if (dependency.lastPassAt)
      lines.push(t("console.settings.health.lastPass", { time: toMinute(dependency.lastPassAt) ?? "" }));
    if (dependency.overdueDeliveries)
      lines.push(t("console.settings.health.overdue", { count: dependency.overdueDeliveries }));
  } else if (dependency.status === "off") lines.push(t("console.settings.health.notConfigured"));
  else if (dependency.error) lines.push(dependency.error);
  return (
    <>
      {lines.map((line) => (
        <span key={line} className="authd-console-line">
          {line}
        </span>
      ))}
    </>
  );
}

function Health({ health }: { health: ConsoleDependency[] }) {
  const { t } = useConsole();
  return (
    <section aria-labelledby="authd-settings-health">
      <h2 id="authd-settings-health" className="authd-console-subtitle">
        {t("console.settings.health.title")}
      </h2>
      <table className="authd-console-table authd-console-keyed">
        <thead>
          <tr>
            <th scope="col">{t("console.settings.health.column.dependency")}</th>
            <th scope="col">{t("console.settings.health.column.status")}</th>
            <th scope="col">{t("console.settings.health.column.where")}</th>
            <th scope="col">{t("console.settings.health.column.detail")}</th>
          </tr>
        </thead>
        <tbody>
          {health.map((dependency) => (
            <tr key={dependency.name} className={dependency.status === "down" ? "authd-console-failed" : undefined}>
              <th scope="row">{t(`console.settings.health.name.${dependency.name}`)}</th>
              <td>{t(`console.settings.health.status.${dependency.status}`)}</td>
              <td>{dependency.target ?? ""}</td>
              <td>
                <HealthDetail dependency={dependency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function SettingValue({ setting }: { setting: ConsoleSetting }) {
  const { t } = useConsole();
  const { value } = setting;
  let shown: string;
  if (value === null || value === "") shown = t("console.settings.config.notSet");
  else if (typeof value === "boolean")
    shown = value ? t("console.settings.config.on") : t("console.settings.config.off");
  else if (Array.isArray(value)) shown = value.length === 0 ? t("console.none") : value.join(", ");
  else shown = String(value);
  return (
    <>
      <code className="authd-console-value">{shown}</code>
      {setting.masked ? <span className="authd-console-secondary">{t("console.settings.config.masked")}</span> : null}
    </>
  );
}

export function ConsoleSettingsScreen({ state }: { state: ConsoleSettingsState }) {
  const { t } = useConsole();
  return (
    <ConsoleShell screen="settings">
      <Health health={state.health} />
      <section aria-labelledby="authd-settings-config">
        <h2 id="authd-settings-config" className="authd-console-subtitle">
          {t("console.settings.config.title")}
        </h2>
        <p className="authd-hint">{t("console.settings.config.explain")}</p>
        <SearchForm
          path="/settings"
          value={state.query.search}
          what="console.settings.config.what"
          hint="console.settings.config.searchHint"
        />
        {state.settings.length === 0 ? (
          <p>{t("console.noResults")}</p>
        ) : (
          <table className="authd-console-table authd-console-keyed">
            <thead>
              <tr>
                <th scope="col">{t("console.settings.config.column.key")}</th>
                <th scope="col">{t("console.settings.config.column.value")}</th>
                <th scope="col">{t("console.settings.config.column.env")}</th>
              </tr>
            </thead>
            <tbody>
              {state.settings.map((setting) => (
                <tr key={setting.key}>
                  <th scope="row">
                    <code>{setting.key}</code>
                  </th>
                  <td>
                    <SettingValue setting={setting} />
                  </td>
                  <td>{setting.env ? <code>{setting.env}</code> : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </ConsoleShell>
  );
}
