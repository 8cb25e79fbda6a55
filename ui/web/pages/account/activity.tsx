import { toMinute } from "../../../shared/dates.ts";
import { describeDevice } from "../../../shared/devices.ts";
import { en } from "../../../shared/messages/en.ts";
import { AccountShell } from "../../components/account-shell.tsx";
import { type MessageKey, usePage } from "../../components/page-context.tsx";
import type { ActivityEntry, StateOf } from "../../state.ts";

// The user's security activity, newest first, a page at a time: each event in words (one sentence per
// event type, in the catalogue as activity.<type>, and activity.<type>.failure where a failure reads
// otherwise), when it happened (UTC), the address and the browser of the request, and whether an
// administrator did it. Links page through older and newer events; there is nothing to send.

type ActivityState = StateOf<"account-activity">;

/** The sentence of an event: its type's failure wording when it has one, else its type's, else a general one. */
export function activityMessageKey(entry: Pick<ActivityEntry, "type" | "outcome">): MessageKey {
  const own = `activity.${entry.type}`;
  const failure = `${own}.failure`;
  if (entry.outcome === "failure" && failure in en) return failure as MessageKey;
  return own in en ? (own as MessageKey) : "activity.unknown";
}

export function AccountActivityPage({ state }: { state: ActivityState }) {
  const { t } = usePage();
  return (
    <AccountShell section="activity" account={state.account}>
      <p className="authd-hint">{t("account.activity.explain")}</p>
      {state.events.length === 0 ? <p className="authd-text">{t("account.activity.none")}</p> : null}
      <ol className="authd-items">
        {state.events.map((entry) => (
          <ActivityItem key={entry.id} entry={entry} />
        ))}
      </ol>
      <Paging state={state} />
    </AccountShell>
  );
}

function ActivityItem({ entry }: { entry: ActivityEntry }) {
  const { t } = usePage();
  const { browser, system } = describeDevice(entry.userAgent);
  const device =
    browser && system ? t("account.activity.browserOnSystem", { browser, system }) : (browser ?? system ?? null);
  const details = [
    entry.ip ? t("account.activity.from", { address: entry.ip }) : null,
    device,
    entry.byOperator ? t("account.activity.byOperator") : null,
  ].filter((detail): detail is string => detail !== null);
  return (
    <li className={entry.outcome === "failure" ? "authd-item authd-item-failure" : "authd-item"}>
      <div className="authd-item-text">
        <p className="authd-item-name">{t(activityMessageKey(entry))}</p>
        <p className="authd-item-detail">
          <time dateTime={entry.createdAt}>{t("account.time", { time: toMinute(entry.createdAt) ?? "" })}</time>
          {details.map((detail) => ` · ${detail}`).join("")}
        </p>
      </div>
    </li>
  );
}

function Paging({ state }: { state: ActivityState }) {
  const { t } = usePage();
  if (state.total <= state.limit && state.offset === 0) return null;
  const page = Math.floor(state.offset / state.limit) + 1;
  const at = (number: number) => `${state.paths.pages}/activity${number > 1 ? `?page=${number}` : ""}`;
  const shown = state.events.length;
  return (
    <nav className="authd-paging" aria-label={t("account.activity.pages")}>
      <p className="authd-hint">
        {t("account.activity.range", {
          from: shown > 0 ? state.offset + 1 : 0,
          to: state.offset + shown,
          total: state.total,
        })}
      </p>
      <div className="authd-paging-links">
        {page > 1 ? <a href={at(page - 1)}>{t("action.newer")}</a> : null}
        {state.offset + shown < state.total ? <a href={at(page + 1)}>{t("action.older")}</a> : null}
      </div>
    </nav>
  );
}
