import { Box, Text } from "ink";
import { useState } from "react";
import type { ListedSession } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { Confirm } from "../components/Prompt.tsx";
import { PageLine } from "../components/SearchLine.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { usePagedList } from "../hooks/use-paged-list.ts";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { LIST_CHROME_ROWS, type ListScreenProps } from "./SearchableListScreen.tsx";

/** Every active session, newest first; x revokes the highlighted one, enter opens its user. */
export function SessionsScreen({ data, nav, position, setPosition }: ListScreenProps) {
  const { columns, rows } = useTerminalSize();
  const pageSize = Math.max(3, rows - LIST_CHROME_ROWS);
  const list = usePagedList(data.listSessions, position, setPosition, { pageSize, searchable: false });
  const action = useAction(list.result.reload);
  const [confirming, setConfirming] = useState<ListedSession>();

  useKeys(
    (input, key) => {
      if (list.handleKey(input, key)) return;
      if (key.tab) return nav.nextTab(key.shift ? -1 : 1);
      if (key.escape) return nav.quit();
      const session = list.current;
      if (!session) return;
      if (key.return) return nav.openUser(session.userId);
      if (input === "x") setConfirming(session);
    },
    { isActive: !confirming },
  );

  return (
    <Box flexDirection="column">
      <Text dimColor>active sessions</Text>
      <Table<ListedSession>
        rows={list.items}
        selected={list.selected}
        width={columns}
        rowKey={(s) => s.id}
        emptyText={list.result.loading ? "loading…" : "no active sessions"}
        columns={[
          { header: "user", value: (s) => s.userEmail },
          { header: "created", width: 16, value: (s) => toMinute(s.createdAt) },
          { header: "expires", width: 16, value: (s) => toMinute(s.expiresAt) },
          { header: "ip", value: (s) => s.ipAddress },
          { header: "user agent", value: (s) => s.userAgent },
        ]}
      />
      <PageLine
        page={position.page}
        pages={list.pages}
        total={list.total}
        noun="session"
        loading={list.result.loading}
      />
      {confirming ? (
        <Confirm
          question={`Revoke this session of ${confirming.userEmail} (${confirming.ipAddress ?? "no address"})?`}
          onAnswer={(yes) => {
            setConfirming(undefined);
            if (yes)
              void action.run(() => data.revokeSession(confirming.id), `revoked a session of ${confirming.userEmail}`);
          }}
        />
      ) : null}
      <StatusLine error={action.error ?? list.result.error} notice={action.notice} busy={action.busy} />
      <KeyHints
        hints={[
          ["↑↓", "move"],
          ["←→", "page"],
          ["x", "revoke"],
          ["enter", "open user"],
          ["tab", "next screen"],
          ["esc", "quit"],
        ]}
      />
    </Box>
  );
}
