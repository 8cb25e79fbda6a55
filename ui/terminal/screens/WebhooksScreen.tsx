import { Box, Text } from "ink";
import { useState } from "react";
import type { AdminData, Page, SearchPageRequest, WebhookEndpointWire } from "../../data.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { PageLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { handleListScreenKey, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { LIST_CHROME_ROWS, type ListScreenProps } from "./SearchableListScreen.tsx";
import { type Question, QuestionLine, sendTestEvent, toggleQuestion } from "./WebhookActions.tsx";

/** The endpoints, a page at a time (there are few: the service answers them all). */
async function endpointPage(data: AdminData, { limit, offset }: SearchPageRequest): Promise<Page<WebhookEndpointWire>> {
  const endpoints = await data.listWebhookEndpoints();
  return { items: endpoints.slice(offset, offset + limit), total: endpoints.length };
}

/**
 * The webhook endpoints (shown while webhooks are on) with their deliveries waiting, delivered and failed:
 * enter opens one's delivery log, t sends it a test event, x disables or enables it (asks first). The list
 * has no search, so plain letters act, as on the sessions and clients screens.
 */
export function WebhooksScreen({ data, nav, position, setPosition, notice }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList((request) => endpointPage(data, request), position, setPosition, {
    pageSize,
    searchable: false,
  });
  const action = useAction(list.result.reload);
  const [question, setQuestion] = useState<Question>();

  useKeys(
    (input, key) => {
      const endpoint = list.current;
      if (endpoint && !key.ctrl && input === "t") return void action.run(() => sendTestEvent(data, endpoint.id));
      if (endpoint && !key.ctrl && input === "x") return setQuestion(toggleQuestion(data, endpoint));
      handleListScreenKey(list, input, key, {
        search: "",
        clearSearch: () => setPosition(() => START),
        nextTab: nav.nextTab,
        open: (row) => nav.openWebhook(row.id),
        quit: nav.quit,
      });
    },
    { isActive: !question },
  );

  return (
    <Box flexDirection="column">
      <Text dimColor>webhook endpoints: where authd sends its events (authd webhooks adds and changes them)</Text>
      <Table<WebhookEndpointWire>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={(e) => e.id}
        emptyText={list.result.loading ? "loading…" : "no webhook endpoints (authd webhooks add makes one)"}
        columns={[
          { header: "id", value: (e) => e.id },
          { header: "url", value: (e) => e.url },
          { header: "events", value: (e) => e.events.join(",") },
          { header: "config", width: 6, value: (e) => e.origin === "config" },
          { header: "enabled", width: 7, value: (e) => !e.disabled, color: (e) => (e.disabled ? "red" : undefined) },
          { header: "pending", width: 7, value: (e) => e.deliveries.pending },
          { header: "delivered", width: 9, value: (e) => e.deliveries.delivered },
          {
            header: "failed",
            width: 6,
            value: (e) => e.deliveries.failed,
            color: (e) => (e.deliveries.failed > 0 ? "red" : undefined),
          },
        ]}
      />
      <PageLine
        page={position.page}
        pages={list.pages}
        total={list.total}
        noun="endpoint"
        loading={list.result.loading}
      />
      {question ? (
        <QuestionLine question={question} onDone={() => setQuestion(undefined)} run={(work) => void action.run(work)} />
      ) : null}
      <StatusLine error={action.error ?? list.result.error} notice={action.notice ?? notice} busy={action.busy} />
      <KeyHints
        hints={[
          ["↑↓", "move"],
          ["←→", "page"],
          ["enter", "delivery log"],
          ["t", "send test event"],
          ["x", "disable/enable"],
          ["tab", "next screen"],
          ["esc", "quit"],
        ]}
      />
    </Box>
  );
}
