import type { Key } from "ink";
import type { Page, SearchPageRequest } from "../../data.ts";
import { type AsyncData, useAsyncData } from "./use-async-data.ts";

/** Where a list is (kept by the app, so going back to a list finds it as it was left). */
export interface ListPosition {
  search: string;
  page: number;
  cursor: number;
}

export const START: ListPosition = { search: "", page: 0, cursor: 0 };

export interface PagedList<T> {
  result: AsyncData<Page<T>>;
  items: T[];
  total: number;
  pages: number;
  /** The highlighted row, clamped to what the page holds. */
  selected: number;
  current: T | undefined;
  /** Handle navigation keys (and typing into the search when searchable); true when the key was used. */
  handleKey(input: string, key: Key): boolean;
}

export function usePagedList<T>(
  load: (request: SearchPageRequest) => Promise<Page<T>>,
  position: ListPosition,
  setPosition: (update: (previous: ListPosition) => ListPosition) => void,
  options: { pageSize: number; searchable: boolean },
): PagedList<T> {
  const { pageSize, searchable } = options;
  const result = useAsyncData(
    () => load({ search: position.search || undefined, limit: pageSize, offset: position.page * pageSize }),
    [position.search, position.page, pageSize],
  );
  const items = result.data?.items ?? [];
  const total = result.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const selected = Math.max(0, Math.min(position.cursor, items.length - 1));

  const handleKey = (input: string, key: Key): boolean => {
    if (key.upArrow) {
      if (selected > 0) setPosition((p) => ({ ...p, cursor: selected - 1 }));
      else if (position.page > 0) setPosition((p) => ({ ...p, page: p.page - 1, cursor: pageSize - 1 }));
      return true;
    }
    if (key.downArrow) {
      if (selected < items.length - 1) setPosition((p) => ({ ...p, cursor: selected + 1 }));
      else if (position.page + 1 < pages) setPosition((p) => ({ ...p, page: p.page + 1, cursor: 0 }));
      return true;
    }
    if (key.pageDown || key.rightArrow) {
      if (position.page + 1 < pages) setPosition((p) => ({ ...p, page: p.page + 1, cursor: 0 }));
      return true;
    }
    if (key.pageUp || key.leftArrow) {
      if (position.page > 0) setPosition((p) => ({ ...p, page: p.page - 1, cursor: 0 }));
      return true;
    }
    if (key.home) {
      setPosition((p) => ({ ...p, page: 0, cursor: 0 }));
      return true;
    }
    if (!searchable) return false;
    if (key.backspace || key.delete) {
      setPosition((p) => ({ search: p.search.slice(0, -1), page: 0, cursor: 0 }));
      return true;
    }
    if (key.ctrl || key.meta || key.tab || key.return || key.escape) return false;
    if (input && input >= " ") {
      setPosition((p) => ({ search: p.search + input, page: 0, cursor: 0 }));
      return true;
    }
    return false;
  };

  return { result, items, total, pages, selected, current: items[selected], handleKey };
}

/**
 * The keys every list screen shares: navigation and search, tab to the next screen, enter to open the
 * highlighted row, esc to clear the search or (when empty) quit. Returns true when the key was used.
 */
export function handleListScreenKey<T>(
  list: PagedList<T>,
  input: string,
  key: Key,
  actions: { search: string; clearSearch(): void; nextTab(step: 1 | -1): void; open(row: T): void; quit(): void },
): boolean {
  if (list.handleKey(input, key)) return true;
  if (key.tab) actions.nextTab(key.shift ? -1 : 1);
  else if (key.return && list.current) actions.open(list.current);
  else if (key.escape) {
    if (actions.search) actions.clearSearch();
    else actions.quit();
  } else return false;
  return true;
}
