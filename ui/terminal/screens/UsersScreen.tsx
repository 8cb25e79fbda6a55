import type { UserWire } from "../../data.ts";
import { type ListScreenProps, SearchableListScreen } from "./SearchableListScreen.tsx";

/** Every user, newest first; typing filters by email, name or username, enter opens one. */
export function UsersScreen({ data, ...props }: ListScreenProps) {
  return (
    <SearchableListScreen<UserWire>
      {...props}
      load={data.listUsers}
      searchHint="type to filter by email, name or username"
      noun="user"
      emptyText="no users match"
      rowKey={(u) => u.id}
      open={(u) => props.nav.openUser(u.id)}
      columns={[
        { header: "email", value: (u) => u.email },
        { header: "name", value: (u) => u.name },
        { header: "role", width: 8, value: (u) => u.role as string | null },
        { header: "verified", width: 8, value: (u) => u.emailVerified },
        {
          header: "banned",
          width: 6,
          value: (u) => u.banned as boolean | null,
          color: (u) => (u.banned ? "red" : undefined),
        },
      ]}
    />
  );
}
