import { Box } from "ink";
import { useKeys } from "../hooks/use-keys.tsx";
import type { OrganizationListRow } from "../../src/db/repositories/directory.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { PageLine, SearchLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { handleListScreenKey, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { LIST_CHROME_ROWS, type ListScreenProps } from "./UsersScreen.tsx";

export function OrganizationsScreen({ data, nav, position, setPosition }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList(data.listOrganizations, position, setPosition, { pageSize, searchable: true });

  useKeys((input, key) => {
    handleListScreenKey(list, input, key, { search: position.search, clearSearch: () => setPosition(() => START), nextTab: nav.nextTab, open: (o) => nav.openOrganization(o.id), quit: nav.quit });
  });

  return (
    <Box flexDirection="column">
      <SearchLine search={position.search} hint="type to filter by name or slug" />
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
      <PageLine page={position.page} pages={list.pages} total={list.total} noun="organization" loading={list.result.loading} />
      <StatusLine error={list.result.error} />
      <KeyHints hints={[["type", "search"], ["↑↓", "move"], ["←→", "page"], ["enter", "open"], ["tab", "next screen"], ["esc", position.search ? "clear search" : "quit"]]} />
    </Box>
  );
}
