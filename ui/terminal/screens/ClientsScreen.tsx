import { Box, Text } from "ink";
import { useState } from "react";
import type { AdminData, OAuthClientWire, Page, SearchPageRequest } from "../../data.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { PageLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { handleListScreenKey, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { CreateClientDialog, clientType, SecretDialog, type ShownSecret } from "./ClientDialogs.tsx";
import { LIST_CHROME_ROWS, type ListScreenProps } from "./SearchableListScreen.tsx";

/** The registered clients, a page at a time (there are few: the service answers them all). */
async function clientPage(data: AdminData, { limit, offset }: SearchPageRequest): Promise<Page<OAuthClientWire>> {
  const clients = await data.listOAuthClients();
  return { items: clients.slice(offset, offset + limit), total: clients.length };
}

/**
 * The OpenID Provider's clients (shown while it is on): n registers one (a confidential client's secret is
 * shown once, in a box the operator dismisses), enter opens one to give it a new secret or delete it.
 */
export function ClientsScreen({ data, nav, position, setPosition, notice }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList((request) => clientPage(data, request), position, setPosition, {
    pageSize,
    searchable: false,
  });
  const action = useAction(list.result.reload);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ShownSecret>();

  useKeys(
    (input, key) => {
      if (input === "n" && !key.ctrl) return setCreating(true);
      handleListScreenKey(list, input, key, {
        search: "",
        clearSearch: () => setPosition(() => START),
        nextTab: nav.nextTab,
        open: (client) => nav.openClient(client.client_id),
        quit: nav.quit,
      });
    },
    { isActive: !creating && !shown },
  );

  const create = (input: Parameters<AdminData["createOAuthClient"]>[0]) => {
    setCreating(false);
    void action.run(async () => {
      const created = await data.createOAuthClient(input);
      if (created.client_secret === undefined)
        return `registered public client ${created.client_name} (no secret: it proves itself with PKCE)`;
      setShown({
        title: `registered ${created.client_name}`,
        clientId: created.client_id,
        secret: created.client_secret,
      });
      return `registered ${created.client_name}`;
    });
  };

  return (
    <Box flexDirection="column">
      <Text dimColor>OpenID clients: the applications that sign their users in through authd</Text>
      <Table<OAuthClientWire>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={(c) => c.client_id}
        emptyText={list.result.loading ? "loading…" : "no clients registered (n registers one)"}
        columns={[
          { header: "name", value: (c) => c.client_name },
          { header: "client id", value: (c) => c.client_id },
          { header: "type", width: 12, value: clientType },
          { header: "redirect URIs", value: (c) => c.redirect_uris.join(" ") },
          { header: "ID token", width: 8, value: (c) => c.id_token_signed_response_alg },
        ]}
      />
      <PageLine
        page={position.page}
        pages={list.pages}
        total={list.total}
        noun="client"
        loading={list.result.loading}
      />
      {creating ? <CreateClientDialog onCreate={create} onCancel={() => setCreating(false)} /> : null}
      {shown ? <SecretDialog {...shown} onDismiss={() => setShown(undefined)} /> : null}
      <StatusLine error={action.error ?? list.result.error} notice={action.notice ?? notice} busy={action.busy} />
      <KeyHints
        hints={[
          ["↑↓", "move"],
          ["←→", "page"],
          ["n", "register client"],
          ["enter", "open"],
          ["tab", "next screen"],
          ["esc", "quit"],
        ]}
      />
    </Box>
  );
}
