import { Box, Text, useInput } from "ink";
import type { OrganizationListRow } from "../../src/db/repositories/directory.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { LIST_CHROME_ROWS, type ListScreenProps } from "./UsersScreen.tsx";

export function OrganizationsScreen({ data, nav, position, setPosition }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList(data.listOrganizations, position, setPosition, { pageSize, searchable: true });

  useInput((input, key) => {
    if (list.handleKey(input, key)) return;
    if (key.tab) return nav.nextTab(key.shift ? -1 : 1);
    if (key.return && list.current) return nav.openOrganization(list.current.id);
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
        {!position.search ? <Text dimColor> type to filter by name or slug</Text> : null}
      </Box>
      <Table<OrganizationListRow>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={(o) => o.id}
        emptyText={list.result.loading ? "loading…" : "no organizations match"}
        columns={[
          { header: "name", value: (o) => o.name },
          { header: "slug", value: (o) => o.slug },
          { header: "members", width: 7, value: (o) => o.memberCount },
          { header: "created", width: 10, value: (o) => new Date(Number(o.createdAt)).toISOString().slice(0, 10) },
        ]}
      />
      <Text dimColor>{`page ${position.page + 1} of ${list.pages} · ${list.total} organization(s)`}</Text>
      <StatusLine error={list.result.error} />
      <KeyHints hints={[["type", "search"], ["↑↓", "move"], ["←→", "page"], ["enter", "open"], ["tab", "next screen"], ["esc", position.search ? "clear search" : "quit"]]} />
    </Box>
  );
}
