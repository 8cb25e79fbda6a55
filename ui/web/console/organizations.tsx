import { toDay } from "../../shared/dates.ts";
import { type ConsoleOrganizationsState, consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { Pager, SearchForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// The organizations screen: search by name or slug; one page of organizations with their member counts, each
// linking to its screen.

export function ConsoleOrganizationsScreen({ state }: { state: ConsoleOrganizationsState }) {
  const { t, state: page } = useConsole();
  const number = new Intl.NumberFormat(page.locale);
  const { search, offset, limit } = state.query;
  return (
    <ConsoleShell screen="organizations">
      <SearchForm
        path="/organizations"
        value={search}
        what="console.organizations.what"
        hint="console.organizations.searchHint"
      />
      <table className="authd-console-table">
        <thead>
          <tr>
            <th scope="col">{t("console.organizations.column.organization")}</th>
            <th scope="col">{t("console.organizations.column.members")}</th>
            <th scope="col">{t("console.organizations.column.created")}</th>
          </tr>
        </thead>
        <tbody>
          {state.organizations.map((organization) => (
            <tr key={organization.id}>
              <td>
                <a href={consoleHref(`/organizations/${encodeURIComponent(organization.id)}`)}>{organization.name}</a>
                <span className="authd-console-secondary">
                  {t("console.organizations.slug", { slug: organization.slug })}
                </span>
              </td>
              <td className="authd-console-nowrap">{number.format(organization.memberCount)}</td>
              <td className="authd-console-nowrap">{toDay(organization.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager path="/organizations" total={state.total} offset={offset} limit={limit} params={{ search }} />
    </ConsoleShell>
  );
}
