import { toDay } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { consoleHref, mayDo } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { PagerLinks } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";
import { UsersSearch } from "./users-filters.tsx";
import { BULK_USER_ACTIONS, type BulkUserAction, type ConsoleUsersState, usersQueryParams } from "./users-state.ts";

// The users screen: the search with its filters and order, one page of users (each linking to its detail,
// each with a box to choose it), the bulk actions this admin may take on the users chosen (each through a
// confirmation, users-confirm.tsx), and the pages before and after (cursors: as quick deep as on page one).

const BULK_PERMISSIONS: Record<BulkUserAction, [string, string]> = {
  ban: ["user", "ban"],
  unban: ["user", "ban"],
  "revoke-sessions": ["session", "revoke"],
};

const BULK_FORM = "authd-console-users-bulk";

function UsersPager({ state }: { state: ConsoleUsersState }) {
  const { t, state: page } = useConsole();
  const { query, users, total, totalCapped, limit } = state;
  const number = new Intl.NumberFormat(page.locale);
  const params = usersQueryParams(query, false);
  const from = query.from;
  const to = from + users.length - 1;
  const values = { from: number.format(from), to: number.format(to), total: number.format(total) };
  const before = state.previous
    ? consoleHref("/users", { ...params, cursor: state.previous, from: Math.max(1, from - limit) })
    : null;
  const after = state.next ? consoleHref("/users", { ...params, cursor: state.next, from: to + 1 }) : null;
  const summary =
    users.length === 0
      ? t("console.noResults")
      : t(totalCapped ? "console.users.resultsMore" : "console.results", values);
  return <PagerLinks summary={summary} before={before} after={after} />;
}

export function ConsoleUsersScreen({ state }: { state: ConsoleUsersState }) {
  const { t, frame } = useConsole();
  const actions = BULK_USER_ACTIONS.filter((action) => mayDo(frame, ...BULK_PERMISSIONS[action]));
  const choosing = actions.length > 0 && state.users.length > 0;
  const back = new URLSearchParams(usersQueryParams(state.query)).toString();
  return (
    <ConsoleShell screen="users">
      <UsersSearch state={state} />
      {state.orgUnknown ? (
        <p className="authd-problem-text" role="status">
          {t("console.users.orgUnknown")}
        </p>
      ) : null}
      {/* The boxes belong to this GET form (by id), which takes the users chosen to the confirmation. */}
      {choosing ? (
        <form id={BULK_FORM} method="get" action={consoleHref(`/users-bulk/${actions[0]}`)}>
          <input type="hidden" name="back" value={back} />
        </form>
      ) : null}
      <table className="authd-console-table">
        <thead>
          <tr>
            {choosing ? (
              <th scope="col" className="authd-console-users-choose">
                {t("console.users.column.choose")}
              </th>
            ) : null}
            <th scope="col">{t("console.users.column.user")}</th>
            <th scope="col">{t("console.users.column.role")}</th>
            <th scope="col">{t("console.users.column.status")}</th>
            <th scope="col">{t("console.users.column.created")}</th>
          </tr>
        </thead>
        <tbody>
          {state.users.map((user) => (
            <tr key={user.id}>
              {choosing ? (
                <td className="authd-console-users-choose">
                  <input
                    type="checkbox"
                    name="user"
                    value={user.id}
                    form={BULK_FORM}
                    aria-label={t("console.users.choose", { email: user.email })}
                  />
                </td>
              ) : null}
              <td>
                <a href={consoleHref(`/users/${encodeURIComponent(user.id)}`)}>{user.email}</a>
                {user.name ? <span className="authd-console-secondary">{user.name}</span> : null}
              </td>
              <td>{user.role ?? "user"}</td>
              <td>
                {user.banned
                  ? t("console.users.status.banned")
                  : user.emailVerified
                    ? t("console.users.status.active")
                    : t("console.users.status.unverified")}
              </td>
              <td>{toDay(user.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {choosing ? (
        <fieldset className="authd-console-users-bulk">
          <legend>{t("console.users.bulk")}</legend>
          {actions.map((action) => (
            <button
              key={action}
              type="submit"
              form={BULK_FORM}
              formAction={consoleHref(`/users-bulk/${action}`)}
              className={action === "unban" ? "authd-button authd-button-secondary" : "authd-button"}
            >
              {t(`console.users.bulk.${action}` as AnyMessageKey)}
            </button>
          ))}
        </fieldset>
      ) : null}
      <UsersPager state={state} />
    </ConsoleShell>
  );
}
