import { Text } from "ink";
import type { UserOverview } from "../../data.ts";
import { OWNER_BANNED_MARKER } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { Table } from "../components/Table.tsx";

export type Focus = "sessions" | "keys" | "passkeys";

interface ListsProps {
  info: UserOverview;
  focus: Focus;
  /** The cursor in the focused list. */
  selected: number;
  /** Rows each table shows. */
  tableRows: number;
  width: number;
}

/** The user's sessions, API keys and passkeys (UserDetailScreen); the focused one shows the cursor. */
export function UserDetailLists({ info, focus, selected, tableRows, width }: ListsProps) {
  // The focused list scrolls with the cursor (sessions stay at the top, as before); the others rest.
  const window = (list: Focus, length: number) =>
    focus !== list || list === "sessions" || length <= tableRows
      ? 0
      : Math.max(0, Math.min(selected - tableRows + 1, length - tableRows));
  const sessionStart = window("sessions", info.sessions.length);
  const keyStart = window("keys", info.apiKeys.length);
  const passkeyStart = window("passkeys", info.passkeys.length);

  return (
    <>
      <Text bold color={focus === "sessions" ? "cyan" : undefined}>{`Sessions (${info.sessions.length} active)`}</Text>
      <Table
        rows={info.sessions.slice(sessionStart, sessionStart + tableRows)}
        selected={focus === "sessions" ? selected - sessionStart : undefined}
        width={width}
        rowKey={(s) => s.id}
        emptyText="no active sessions"
        columns={[
          { header: "created", width: 16, value: (s) => toMinute(s.createdAt) },
          { header: "expires", width: 16, value: (s) => toMinute(s.expiresAt) },
          { header: "ip", value: (s) => s.ipAddress },
          { header: "user agent", value: (s) => s.userAgent },
        ]}
      />
      <Text>
        <Text bold color={focus === "keys" ? "cyan" : undefined}>{`API keys (${info.apiKeys.length})`}</Text>
        {info.apiKeys.some((k) => k.ownerBanned) ? <Text color="red" bold>{` · ${OWNER_BANNED_MARKER}`}</Text> : null}
      </Text>
      <Table
        rows={info.apiKeys.slice(keyStart, keyStart + tableRows)}
        selected={focus === "keys" ? selected - keyStart : undefined}
        width={width}
        rowKey={(k) => k.id}
        emptyText="no API keys"
        columns={[
          { header: "name", value: (k) => k.name },
          { header: "start", width: 10, value: (k) => (k.start ? `${k.start}…` : null) },
          { header: "enabled", width: 7, value: (k) => k.enabled },
          { header: "remaining", width: 9, value: (k) => k.remaining },
          { header: "expires", width: 16, value: (k) => toMinute(k.expiresAt) ?? "never" },
        ]}
      />
      <Text bold color={focus === "passkeys" ? "cyan" : undefined}>{`Passkeys (${info.passkeys.length})`}</Text>
      <Table
        rows={info.passkeys.slice(passkeyStart, passkeyStart + tableRows)}
        selected={focus === "passkeys" ? selected - passkeyStart : undefined}
        width={width}
        rowKey={(p) => p.id}
        emptyText="no passkeys"
        columns={[
          { header: "name", value: (p) => p.name },
          { header: "device", width: 12, value: (p) => p.deviceType },
          { header: "backed up", width: 9, value: (p) => p.backedUp },
          { header: "created", width: 16, value: (p) => toMinute(p.createdAt) },
        ]}
      />
    </>
  );
}
