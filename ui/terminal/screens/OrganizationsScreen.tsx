import type { ListedOrganization } from "../../data.ts";
import { toDay } from "../../shared/dates.ts";
import { type ListScreenProps, SearchableListScreen } from "./SearchableListScreen.tsx";

/** Every organization, newest first; typing filters by name or slug, enter opens one. */
export function OrganizationsScreen({ data, notice: _notice, ...props }: ListScreenProps) {
  return (
    <SearchableListScreen<ListedOrganization>
      {...props}
      load={data.listOrganizations}
      searchHint="type to filter by name or slug"
      noun="organization"
      emptyText="no organizations match"
      rowKey={(o) => o.id}
      open={(o) => props.nav.openOrganization(o.id)}
      columns={[
        { header: "name", value: (o) => o.name },
        { header: "slug", value: (o) => o.slug },
        { header: "members", width: 7, value: (o) => o.memberCount },
        { header: "created", width: 10, value: (o) => toDay(o.createdAt) },
      ]}
    />
  );
}
