import { Box } from "ink";
import { useKeys } from "../hooks/use-keys.tsx";
import type { UserWire } from "../../src/services/users.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { PageLine, SearchLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import type { AdminData } from "../data.ts";
import { handleListScreenKey, type ListPosition, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import type { Navigation } from "./navigation.ts";

export interface ListScreenProps {
  data: AdminData;
  nav: Navigation;
  position: ListPosition;
  setPosition: (update: (previous: ListPosition) => ListPosition) => void;
  notice?: string;
}

/** Chrome around a list: header, search line, table header, paging line, status and key hints. */
export const LIST_CHROME_ROWS = 9;

export function UsersScreen({ data, nav, position, setPosition, notice }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList(data.listUsers, position, setPosition, { pageSize, searchable: true });

  useKeys((input, key) => {
    handleListScreenKey(list, input, key, { search: position.search, clearSearch: () => setPosition(() => START), nextTab: nav.nextTab, open: (u) => nav.openUser(u.id), quit: nav.quit });
  });

  return (
    <Box flexDirection="column">
      <SearchLine search={position.search} hint="type to filter by email, name or username" />
      <Table<UserWire>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={(u) => u.id}
        emptyText={list.result.loading ? "loading…" : "no users match"}
        columns={[
          { header: "email", value: (u) => u.email },
          { header: "name", value: (u) => u.name },
          { header: "role", width: 8, value: (u) => u.role as string | null },
          { header: "verified", width: 8, value: (u) => u.emailVerified },
          { header: "banned", width: 6, value: (u) => u.banned as boolean | null, color: (u) => (u.banned ? "red" : undefined) },
        ]}
      />
      <PageLine page={position.page} pages={list.pages} total={list.total} noun="user" loading={list.result.loading} />
      <StatusLine error={list.result.error} notice={notice} />
      <KeyHints hints={[["type", "search"], ["↑↓", "move"], ["←→", "page"], ["enter", "open"], ["tab", "next screen"], ["esc", position.search ? "clear search" : "quit"]]} />
    </Box>
  );
}
