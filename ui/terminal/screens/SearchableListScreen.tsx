import { Box } from "ink";
import type { AdminData, Page, SearchPageRequest } from "../../data.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { PageLine, SearchLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table, type TableColumn } from "../components/Table.tsx";
import { useKeys } from "../hooks/use-keys.tsx";
import { handleListScreenKey, type ListPosition, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import type { Navigation } from "./navigation.ts";

/** What the app hands each list screen (it keeps every list's position, so going back finds it as left). */
export interface ListScreenProps {
  data: AdminData;
  nav: Navigation;
  position: ListPosition;
  setPosition: (update: (previous: ListPosition) => ListPosition) => void;
  notice?: string;
}

/** Chrome around a list: header, search line, table header, paging line, status and key hints. */
export const LIST_CHROME_ROWS = 9;

export interface SearchableListProps<T> extends Omit<ListScreenProps, "data"> {
  load: (request: SearchPageRequest) => Promise<Page<T>>;
  /** What typing filters by, shown on the search line. */
  searchHint: string;
  /** Singular, for the paging line ("user" → "12 user(s)"). */
  noun: string;
  emptyText: string;
  columns: TableColumn<T>[];
  rowKey: (row: T) => string;
  /** Enter on the highlighted row. */
  open: (row: T) => void;
}

/** A list to search by typing and page through, whose rows open a detail (users, organizations). */
export function SearchableListScreen<T>(props: SearchableListProps<T>) {
  const { nav, position, setPosition, notice } = props;
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList(props.load, position, setPosition, { pageSize, searchable: true });

  useKeys((input, key) => {
    handleListScreenKey(list, input, key, {
      search: position.search,
      clearSearch: () => setPosition(() => START),
      nextTab: nav.nextTab,
      open: props.open,
      quit: nav.quit,
    });
  });

  return (
    <Box flexDirection="column">
      <SearchLine search={position.search} hint={props.searchHint} />
      <Table<T>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={props.rowKey}
        emptyText={list.result.loading ? "loading…" : props.emptyText}
        columns={props.columns}
      />
      <PageLine
        page={position.page}
        pages={list.pages}
        total={list.total}
        noun={props.noun}
        loading={list.result.loading}
      />
      <StatusLine error={list.result.error} notice={notice} />
      <KeyHints
        hints={[
          ["type", "search"],
          ["↑↓", "move"],
          ["←→", "page"],
          ["enter", "open"],
          ["tab", "next screen"],
          ["esc", position.search ? "clear search" : "quit"],
        ]}
      />
    </Box>
  );
}
