import { Box } from "ink";
import { useState } from "react";
import type { ListedApiKey } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { Confirm } from "../components/Prompt.tsx";
import { PageLine, SearchLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table, type TableColumn } from "../components/Table.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { handleListScreenKey, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { LIST_CHROME_ROWS, type ListScreenProps } from "./SearchableListScreen.tsx";

/** How the operator knows a key: its name, else its first characters. */
export const keyLabel = (key: ListedApiKey): string => key.name ?? (key.start ? `${key.start}…` : key.id);

const expired = (key: ListedApiKey, now: number) => key.expiresAt !== null && Date.parse(key.expiresAt) <= now;

/** A key's name and first characters, owner (marked while banned), state, limits and last use. */
function apiKeyColumns(now: number): TableColumn<ListedApiKey>[] {
  return [
    { header: "name", value: (k) => k.name },
    { header: "start", width: 12, value: (k) => (k.start ? `${k.start}…` : null) },
    {
      header: "owner",
      value: (k) => (k.ownerBanned ? `${k.userEmail} (banned)` : k.userEmail),
      color: (k) => (k.ownerBanned ? "red" : undefined),
    },
    { header: "enabled", width: 7, value: (k) => k.enabled, color: (k) => (k.enabled ? undefined : "red") },
    {
      header: "expires",
      width: 16,
      value: (k) => toMinute(k.expiresAt) ?? "never",
      color: (k) => (expired(k, now) ? "red" : undefined),
    },
    { header: "remaining", width: 9, value: (k) => k.remaining ?? "unlimited" },
    { header: "last used", width: 16, value: (k) => toMinute(k.lastRequest) ?? "never" },
  ];
}

/**
 * Every user's API keys (never the keys themselves), newest first: typing filters by name, prefix, first
 * characters or owner email; ctrl-x revokes the highlighted key (asks first), enter opens its owner. Letters
 * go to the search, as on the other lists, so revoking takes ctrl.
 */
export function ApiKeysScreen({ data, nav, position, setPosition, notice }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList(data.listApiKeys, position, setPosition, { pageSize, searchable: true });
  const action = useAction(list.result.reload);
  const [confirming, setConfirming] = useState<ListedApiKey>();
  const now = data.now();

  useKeys(
    (input, key) => {
      if (key.ctrl && input === "x") {
        if (list.current) setConfirming(list.current);
        return;
      }
      handleListScreenKey(list, input, key, {
        search: position.search,
        clearSearch: () => setPosition(() => START),
        nextTab: nav.nextTab,
        open: (row) => nav.openUser(row.userId),
        quit: nav.quit,
      });
    },
    { isActive: !confirming },
  );

  return (
    <Box flexDirection="column">
      <SearchLine search={position.search} hint="type to filter by name, prefix, first characters or owner email" />
      <Table<ListedApiKey>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={(k) => k.id}
        emptyText={list.result.loading ? "loading…" : "no API keys match"}
        columns={apiKeyColumns(now)}
      />
      <PageLine
        page={position.page}
        pages={list.pages}
        total={list.total}
        noun="API key"
        loading={list.result.loading}
      />
      {confirming ? (
        <Confirm
          question={`Revoke API key ${keyLabel(confirming)} of ${confirming.userEmail}? Apps using it stop working.`}
          onAnswer={(yes) => {
            setConfirming(undefined);
            if (yes) void action.run(() => data.revokeApiKey(confirming.id), `API key ${keyLabel(confirming)} revoked`);
          }}
        />
      ) : null}
      <StatusLine error={action.error ?? list.result.error} notice={action.notice ?? notice} busy={action.busy} />
      <KeyHints
        hints={[
          ["type", "search"],
          ["↑↓", "move"],
          ["←→", "page"],
          ["ctrl-x", "revoke"],
          ["enter", "open owner"],
          ["tab", "next screen"],
          ["esc", position.search ? "clear search" : "quit"],
        ]}
      />
    </Box>
  );
}
