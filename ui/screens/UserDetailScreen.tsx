import { Box, Text } from "ink";
import { useState } from "react";
import { OWNER_BANNED_MARKER } from "../../src/services/api-keys.ts";
import { toMinute } from "../components/dates.ts";
import { type KeyHint, KeyHints } from "../components/KeyHints.tsx";
import { Confirm, Prompt } from "../components/Prompt.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import type { AdminData } from "../data.ts";
import { useAction } from "../hooks/use-action.ts";
import { useAsyncData } from "../hooks/use-async-data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { BanDialog, IssueKeyDialog } from "./Dialogs.tsx";
import type { Navigation } from "./navigation.ts";

type Mode = "browse" | "ban" | "role" | "issue-key" | "delete" | "revoke-all" | "revoke-one";
type Focus = "sessions" | "keys";

/** 3600 → "1h", 604800 → "7d": a ban's length as the operator typed it. */
function formatSeconds(total: number): string {
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3600],
    ["m", 60],
  ] as const)
    if (total % size === 0) return `${total / size}${unit}`;
  return `${total}s`;
}

/** One user: profile, sessions, linked accounts, organizations and API keys, with the admin actions. */
export function UserDetailScreen({ data, userId, nav }: { data: AdminData; userId: string; nav: Navigation }) {
  const { columns, rows } = useTerminalSize();
  const overview = useAsyncData(() => data.describeUser(userId), [userId]);
  const action = useAction(overview.reload);
  const [mode, setMode] = useState<Mode>("browse");
  const [focus, setFocus] = useState<Focus>("sessions");
  const [cursor, setCursor] = useState(0);
  const [issuedKey, setIssuedKey] = useState<string>();

  const info = overview.data;
  const user = info?.user;
  const focused = focus === "sessions" ? (info?.sessions ?? []) : (info?.apiKeys ?? []);
  const selected = Math.max(0, Math.min(cursor, focused.length - 1));
  const tableRows = Math.max(2, Math.floor((rows - 16) / 2));
  const window = (length: number) =>
    focus === "sessions" || length <= tableRows
      ? 0
      : Math.max(0, Math.min(selected - tableRows + 1, length - tableRows));

  const finish = () => setMode("browse");
  const item = focused[selected];
  const keyName = item && "name" in item && item.name ? item.name : item?.id;
  useKeys(
    (input, key) => {
      if (key.escape) return nav.back();
      if (!user) return;
      if (key.tab) {
        setFocus((f) => (f === "sessions" ? "keys" : "sessions"));
        return setCursor(0);
      }
      if (key.upArrow) return setCursor(Math.max(0, selected - 1));
      if (key.downArrow) return setCursor(Math.min(focused.length - 1, selected + 1));
      if (input === "b") {
        if (user.banned) void action.run(() => data.unbanUser(user.id), `unbanned ${user.email}`);
        else setMode("ban");
        return;
      }
      if (input === "r") return setMode("role");
      if (input === "k") return setMode("issue-key");
      if (input === "d") return setMode("delete");
      if (input === "a") return setMode("revoke-all");
      if (input === "x") {
        if (focused[selected]) setMode("revoke-one");
        return;
      }
      if (input === "R") overview.reload();
    },
    { isActive: mode === "browse" },
  );

  if (overview.error && !info) return <StatusLine error={overview.error} />;
  if (!info || !user) {
    return (
      <Box flexDirection="column">
        <Text dimColor>{overview.loading ? "loading…" : "this user no longer exists"}</Text>
        <KeyHints hints={[["esc", "back"]]} />
      </Box>
    );
  }

  const hints: KeyHint[] = [
    ["b", user.banned ? "unban" : "ban"],
    ["r", "set role"],
    ["tab", focus === "sessions" ? "to API keys" : "to sessions"],
    ["↑↓", "move"],
    ["x", focus === "sessions" ? "revoke session" : "revoke key"],
    ["a", "revoke all sessions"],
    ["k", "issue API key"],
    ["d", "delete user"],
    ["esc", "back"],
  ];
  const width = columns;
  const sessionStart = window(info.sessions.length);
  const keyStart = window(info.apiKeys.length);

  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{user.name}</Text>
        {` <${user.email}>  `}
        <Text dimColor>{user.id}</Text>
      </Text>
      <Text>
        {`role ${user.role ?? "-"} · email ${user.emailVerified ? "verified" : "not verified"} · created ${toMinute(user.createdAt)} · `}
        {user.banned ? (
          <Text color="red" bold>
            {`BANNED (${user.banReason ?? "no reason"}) ${user.banExpires ? `until ${toMinute(user.banExpires)}` : "until unbanned"}`}
          </Text>
        ) : (
          <Text color="green">active</Text>
        )}
      </Text>
      <Text dimColor>
        {`accounts: ${info.accounts.map((a) => a.providerId).join(", ") || "none"} · organizations: ${info.organizations.map((o) => `${o.slug} (${o.role})`).join(", ") || "none"}`}
      </Text>
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
      {issuedKey ? (
        <Box borderStyle="round" borderColor="green" flexDirection="column" paddingX={1}>
          <Text color="green">new API key (shown once, copy it now):</Text>
          <Text bold>{issuedKey}</Text>
        </Box>
      ) : null}
      {mode === "ban" ? (
        <BanDialog
          onCancel={finish}
          onBan={(reason, expiresIn) => {
            finish();
            const until = expiresIn ? ` for ${formatSeconds(expiresIn)}` : "";
            void action.run(() => data.banUser(user.id, reason, expiresIn), `banned ${user.email}${until}`);
          }}
        />
      ) : null}
      {mode === "revoke-one" && item ? (
        <Confirm
          question={
            focus === "sessions"
              ? `Revoke this session of ${user.email} (${"ipAddress" in item ? (item.ipAddress ?? "no address") : ""})?`
              : `Revoke API key ${keyName}? Apps using it stop working.`
          }
          onAnswer={(yes) => {
            finish();
            if (!yes) return;
            if (focus === "sessions") void action.run(() => data.revokeSession(item.id), "session revoked");
            else void action.run(() => data.revokeApiKey(item.id), `API key ${keyName} revoked`);
          }}
        />
      ) : null}
      {mode === "role" ? (
        <Prompt
          label="new role:"
          initial={(user.role as string | null) ?? ""}
          onCancel={finish}
          onSubmit={(role) => {
            finish();
            if (!role.trim()) return;
            void action.run(() => data.setRole(user.id, role.trim()), `role set to ${role.trim()}`);
          }}
        />
      ) : null}
      {mode === "issue-key" ? (
        <IssueKeyDialog
          banned={Boolean(user.banned)}
          defaults={data.apiKeyDefaults()}
          onCancel={finish}
          onIssue={(options) => {
            finish();
            void action.run(async () => {
              const created = await data.issueApiKey(user.id, options);
              setIssuedKey(created.key);
              return user.banned ? "API key issued (refused while the ban lasts)" : "API key issued";
            });
          }}
        />
      ) : null}
      {mode === "revoke-all" ? (
        <Confirm
          question={`Revoke all ${info.sessions.length} session(s) of ${user.email}?`}
          onAnswer={(yes) => {
            finish();
            if (yes) void action.run(async () => `revoked ${await data.revokeAllSessions(user.id)} session(s)`);
          }}
        />
      ) : null}
      {mode === "delete" ? (
        <Confirm
          question={`Delete ${user.email} with all their sessions, accounts and keys? This cannot be undone.`}
          onAnswer={(yes) => {
            finish();
            if (!yes) return;
            void action.run(async () => {
              await data.deleteUser(user.id);
              nav.back(`deleted ${user.email}`);
            });
          }}
        />
      ) : null}
      <StatusLine error={action.error ?? overview.error} notice={action.notice} busy={action.busy} />
      <KeyHints hints={hints} />
    </Box>
  );
}
