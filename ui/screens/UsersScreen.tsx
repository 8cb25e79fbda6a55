import { Box, Text, useInput } from "ink";
import type { UserWire } from "../../src/services/users.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import type { AdminData } from "../data.ts";
import { type ListPosition, usePagedList } from "../hooks/use-paged-list.ts";
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

  useInput((input, key) => {
    if (list.handleKey(input, key)) return;
    if (key.tab) return nav.nextTab(key.shift ? -1 : 1);
    if (key.return && list.current) return nav.openUser(list.current.id);
    if (key.escape) {
      if (position.search) setPosition(() => ({ search: "", page: 0, cursor: 0 }));
      else nav.quit();
    }
  });

  return (
    <Box flexDirection="column">
      <Box>
        <Text color="cyan" bold>
          search:{" "}
        </Text>
        <Text>{position.search}</Text>
        <Text inverse> </Text>
        {!position.search ? <Text dimColor> type to filter by email, name or username</Text> : null}
      </Box>
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
      <Text dimColor>{`page ${position.page + 1} of ${list.pages} · ${list.total} user(s)`}</Text>
      <StatusLine error={list.result.error} notice={notice} />
      <KeyHints hints={[["type", "search"], ["↑↓", "move"], ["←→", "page"], ["enter", "open"], ["tab", "next screen"], ["esc", position.search ? "clear search" : "quit"]]} />
    </Box>
  );
}
