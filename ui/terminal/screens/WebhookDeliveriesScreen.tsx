import { Box, Text } from "ink";
import { useState } from "react";
import type { AdminData, WebhookAttemptWire, WebhookEndpointWire } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { PageLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useAsyncData } from "../hooks/use-async-data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { type ListPosition, START, usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import type { Navigation } from "./navigation.ts";
import { answerOf, outcomeOf, type Question, QuestionLine, sendTestEvent, toggleQuestion } from "./WebhookActions.tsx";

/** Chrome around the log: header, the endpoint's two lines, the table header, paging, status and key hints. */
const LOG_CHROME_ROWS = 10;

const toSecond = (iso: string): string => iso.replace("T", " ").slice(0, 19);

function EndpointLines({ endpoint }: { endpoint: WebhookEndpointWire }) {
  const { pending, delivered, failed } = endpoint.deliveries;
  return (
    <>
      <Text>
        <Text bold>{endpoint.id}</Text>
        {`  ${endpoint.url}  `}
        <Text color={endpoint.disabled ? "red" : "green"}>{endpoint.disabled ? "disabled" : "enabled"}</Text>
        {endpoint.origin === "config" ? <Text dimColor> (from the config file)</Text> : null}
      </Text>
      <Text dimColor>
        {`events ${endpoint.events.join(",")} · ${pending} pending · ${delivered} delivered · ${failed} failed · `}
        {`last attempt ${toMinute(endpoint.lastAttempt?.at) ?? "never"}`}
      </Text>
    </>
  );
}

function EndpointGone({ loading, error }: { loading: boolean; error?: string }) {
  return (
    <Box flexDirection="column">
      <StatusLine error={error} />
      <Text dimColor>{loading ? "loading…" : "this webhook endpoint no longer exists"}</Text>
      <KeyHints hints={[["esc", "back"]]} />
    </Box>
  );
}

function LogKeyHints({ failedOnly, disabled }: { failedOnly: boolean; disabled: boolean }) {
  return (
    <KeyHints
      hints={[
        ["↑↓", "move"],
        ["←→", "page"],
        ["f", failedOnly ? "show all" : "failed only"],
        ["r", "resend"],
        ["t", "send test event"],
        ["x", disabled ? "enable" : "disable"],
        ["esc", "back"],
      ]}
    />
  );
}

/** The log's requests: time, event type, the answer (green when 2xx), duration and what sent it. */
function DeliveryTable(props: { rows: WebhookAttemptWire[]; selected: number; width: number; emptyText: string }) {
  return (
    <Table<WebhookAttemptWire>
      {...props}
      rowKey={(a) => a.id}
      columns={[
        { header: "time", width: 19, value: (a) => toSecond(a.attemptedAt) },
        { header: "event", value: (a) => a.eventType },
        { header: "answer", value: answerOf, color: (a) => (a.ok ? "green" : "red") },
        { header: "duration", width: 9, value: (a) => `${a.durationMs} ms` },
        { header: "attempt", width: 8, value: (a) => a.trigger },
      ]}
    />
  );
}

/**
 * One endpoint's delivery log, newest first: each request sent (by the worker, a resend or a test) with its
 * answer and timing. f shows the failed ones only, r sends the highlighted one again (asks first; the answer
 * is shown), t sends a test event, x disables or enables the endpoint (asks first), esc goes back.
 */
export function WebhookDeliveriesScreen({
  data,
  endpointId,
  nav,
}: {
  data: AdminData;
  endpointId: string;
  nav: Navigation;
}) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LOG_CHROME_ROWS);
  const [position, setPosition] = useState<ListPosition>(START);
  const [failedOnly, setFailedOnly] = useState(false);
  const found = useAsyncData(() => data.describeWebhookEndpoint(endpointId), [endpointId]);
  const list = usePagedList(
    ({ limit, offset }) => data.listWebhookDeliveries(endpointId, { failedOnly, limit, offset }),
    position,
    setPosition,
    { pageSize, searchable: false },
  );
  const action = useAction(() => {
    found.reload();
    list.result.reload();
  });
  const [question, setQuestion] = useState<Question>();
  const endpoint = found.data;

  const resendQuestion = (attempt: WebhookAttemptWire): Question => ({
    text: `Resend the ${attempt.eventType} request of ${toSecond(attempt.attemptedAt)} (${answerOf(attempt)}) now?`,
    run: async () => outcomeOf("resent", await data.resendWebhookDelivery(attempt.id, endpointId)),
  });

  useKeys(
    (input, key) => {
      if (list.handleKey(input, key)) return;
      if (key.escape) return nav.back();
      if (key.tab) return nav.nextTab(key.shift ? -1 : 1);
      if (key.ctrl || !endpoint) return;
      if (input === "f") {
        setFailedOnly((only) => !only);
        setPosition(() => START);
        list.result.reload();
      } else if (input === "r" && list.current) setQuestion(resendQuestion(list.current));
      else if (input === "t") void action.run(() => sendTestEvent(data, endpointId));
      else if (input === "x") setQuestion(toggleQuestion(data, endpoint));
    },
    { isActive: !question },
  );

  if (!endpoint) return <EndpointGone loading={found.loading} error={found.error} />;

  return (
    <Box flexDirection="column">
      <EndpointLines endpoint={endpoint} />
      <DeliveryTable
        rows={list.items}
        selected={list.selected}
        width={columns}
        emptyText={list.result.loading ? "loading…" : failedOnly ? "no failed requests" : "nothing sent yet"}
      />
      <PageLine
        page={position.page}
        pages={list.pages}
        total={list.total}
        noun={failedOnly ? "failed request" : "request"}
        loading={list.result.loading}
      />
      {question ? (
        <QuestionLine question={question} onDone={() => setQuestion(undefined)} run={(work) => void action.run(work)} />
      ) : null}
      <StatusLine error={action.error ?? list.result.error} notice={action.notice} busy={action.busy} />
      <LogKeyHints failedOnly={failedOnly} disabled={endpoint.disabled} />
    </Box>
  );
}
