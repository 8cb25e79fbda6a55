import { toMinute } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { type ConsoleOverviewState, consoleHref, type OverviewRange } from "../console-state.ts";
import { ActivityChart, type ActivitySeries } from "./activity-chart.tsx";
import { useConsole } from "./context.tsx";
import { ConsoleShell } from "./shell.tsx";

// The console's home: the figures (users, active sessions, failed webhook deliveries), then sign-ups,
// sign-ins and failed sign-ins over the last 24 hours or 30 days, as charts and as a table. The range is a
// pair of links, so it changes without JavaScript.

const SERIES: ActivitySeries[] = ["signUps", "signIns", "failedSignIns"];
const RANGES: OverviewRange[] = ["24h", "30d"];

function Figure({ label, value, note, href }: { label: string; value: string; note?: string; href?: string }) {
  return (
    <div className="authd-console-stat">
      <dt>{label}</dt>
      <dd>
        <span className="authd-console-stat-value">{href ? <a href={href}>{value}</a> : value}</span>
        {note ? <span className="authd-console-secondary">{note}</span> : null}
      </dd>
    </div>
  );
}

function Activity({ state }: { state: ConsoleOverviewState }) {
  const { t, state: page } = useConsole();
  const number = new Intl.NumberFormat(page.locale);
  const buckets = state.activity ?? [];
  const longerThanKept = state.range === "30d" && state.retentionDays < 30;
  return (
    <section className="authd-console-activity" aria-labelledby="authd-console-activity">
      <h2 id="authd-console-activity" className="authd-subtitle-heading">
        {t("console.overview.activity")}
      </h2>
      <nav className="authd-console-range" aria-label={t("console.overview.range")}>
        {RANGES.map((range) => (
          <a
            key={range}
            href={consoleHref("", { range })}
            aria-current={range === state.range ? "page" : undefined}
            className="authd-console-range-link"
          >
            {t(`console.overview.range.${range}` as AnyMessageKey)}
          </a>
        ))}
      </nav>
      <p className="authd-hint">
        {t("console.overview.utc")}
        {longerThanKept ? ` ${t("console.overview.retention", { days: state.retentionDays })}` : null}
      </p>
      <div className="authd-console-charts">
        {SERIES.map((series) => (
          <ActivityChart key={series} series={series} range={state.range} buckets={buckets} />
        ))}
      </div>
      <details className="authd-console-chart-data">
        <summary>{t("console.overview.table")}</summary>
        <table className="authd-console-table">
          <caption className="authd-visually-hidden">
            {t(`console.overview.caption.${state.range}` as AnyMessageKey)}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t(`console.overview.column.${state.range}` as AnyMessageKey)}</th>
              {SERIES.map((series) => (
                <th key={series} scope="col">
                  {t(`console.overview.series.${series}` as AnyMessageKey)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">{state.range === "24h" ? toMinute(bucket.start) : bucket.start.slice(0, 10)}</th>
                {SERIES.map((series) => (
                  <td key={series}>{number.format(bucket[series])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

export function ConsoleOverviewScreen({ state }: { state: ConsoleOverviewState }) {
  const { t, state: page, frame } = useConsole();
  const number = new Intl.NumberFormat(page.locale);
  const { webhooks } = state;
  return (
    <ConsoleShell screen="overview">
      <p className="authd-hint">{t("console.overview.asOf", { time: toMinute(state.at) ?? "" })}</p>
      <dl className="authd-console-stats">
        <Figure
          label={t("console.overview.users")}
          value={number.format(state.users)}
          href={frame.screens.includes("users") ? consoleHref("/users") : undefined}
        />
        {state.activeSessions !== null ? (
          <Figure label={t("console.overview.sessions")} value={number.format(state.activeSessions)} />
        ) : null}
        {webhooks ? (
          <Figure
            label={t("console.overview.webhooksFailed")}
            value={number.format(webhooks.failedDeliveries)}
            note={t("console.overview.webhooksNote", {
              endpoints: number.format(webhooks.failingEndpoints),
              pending: number.format(webhooks.pendingDeliveries),
            })}
            href={frame.screens.includes("webhooks") ? consoleHref("/webhooks") : undefined}
          />
        ) : null}
      </dl>
      {state.activity ? <Activity state={state} /> : null}
    </ConsoleShell>
  );
}
