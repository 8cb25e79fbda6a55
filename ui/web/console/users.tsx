import { toDay } from "../../shared/dates.ts";
import { type ConsoleUsersState, consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { Pager, SearchForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// The users screen: search by email, name, username or id; one page of users with their role and status,
// each linking to its detail.

export function ConsoleUsersScreen({ state }: { state: ConsoleUsersState }) {
  const { t } = useConsole();
  const { search, offset, limit } = state.query;
  return (
    <ConsoleShell screen="users">
      <SearchForm path="/users" value={search} what="console.users.what" hint="console.users.searchHint" />
      <table className="authd-console-table">
        <thead>
          <tr>
            <th scope="col">{t("console.users.column.user")}</th>
            <th scope="col">{t("console.users.column.role")}</th>
            <th scope="col">{t("console.users.column.status")}</th>
            <th scope="col">{t("console.users.column.created")}</th>
          </tr>
        </thead>
        <tbody>
          {state.users.map((user) => (
            <tr key={user.id}>
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
      <Pager path="/users" total={state.total} offset={offset} limit={limit} params={{ search }} />
    </ConsoleShell>
  );
}
