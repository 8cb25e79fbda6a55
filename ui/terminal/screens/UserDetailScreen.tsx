import { Box, Text } from "ink";
import { useState } from "react";
import type { AdminData } from "../../data.ts";
import { OWNER_BANNED_MARKER } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { type KeyHint, KeyHints } from "../components/KeyHints.tsx";
import { Confirm, Prompt } from "../components/Prompt.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useAsyncData } from "../hooks/use-async-data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import { BanDialog, IssueKeyDialog } from "./Dialogs.tsx";
import type { Navigation } from "./navigation.ts";

type Mode = "browse" | "ban" | "role" | "issue-key" | "delete" | "revoke-all" | "revoke-one" | "reset-2fa";
type Focus = "sessions" | "keys" | "passkeys";

const NEXT_FOCUS: Record<Focus, Focus> = { sessions: "keys", keys: "passkeys", passkeys: "sessions" };
const FOCUS_LABEL: Record<Focus, string> = { sessions: "sessions", keys: "API keys", passkeys: "passkeys" };

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

/** One user: profile, sessions, linked accounts, organizations, API keys and passkeys, with the admin actions. */
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
  const lists = { sessions: info?.sessions ?? [], keys: info?.apiKeys ?? [], passkeys: info?.passkeys ?? [] };
  const focused: { id: string; name?: string | null }[] = lists[focus];
  const selected = Math.max(0, Math.min(cursor, focused.length - 1));
  const tableRows = Math.max(2, Math.floor((rows - 18) / 3));
  // The focused list scrolls with the cursor (sessions stay at the top, as before); the others rest.
  const window = (list: Focus, length: number) =>
    focus !== list || list === "sessions" || length <= tableRows
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
        setFocus((f) => NEXT_FOCUS[f]);
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
      if (input === "f" && user.twoFactorEnabled) return setMode("reset-2fa");
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
    ["tab", `to ${FOCUS_LABEL[NEXT_FOCUS[focus]]}`],
    ["↑↓", "move"],
    ["x", { sessions: "revoke session", keys: "revoke key", passkeys: "remove passkey" }[focus]],
    ["a", "revoke all sessions"],
    ...(user.twoFactorEnabled ? [["f", "reset 2FA"] as KeyHint] : []),
    ["k", "issue API key"],
    ["d", "delete user"],
    ["esc", "back"],
  ];
  const width = columns;
  const sessionStart = window("sessions", info.sessions.length);
  const keyStart = window("keys", info.apiKeys.length);
  const passkeyStart = window("passkeys", info.passkeys.length);

  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{user.name}</Text>
        {` <${user.email}>  `}
        <Text dimColor>{user.id}</Text>
      </Text>
      <Text>
        {`role ${user.role ?? "-"} · email ${user.emailVerified ? "verified" : "not verified"} · 2FA ${user.twoFactorEnabled ? "on" : "off"} · created ${toMinute(user.createdAt)} · `}
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
              : focus === "keys"
                ? `Revoke API key ${keyName}? Apps using it stop working.`
                : `Remove passkey ${keyName} of ${user.email}? It can no longer sign in.`
          }
          onAnswer={(yes) => {
            finish();
            if (!yes) return;
            if (focus === "sessions") void action.run(() => data.revokeSession(item.id), "session revoked");
            else if (focus === "keys") void action.run(() => data.revokeApiKey(item.id), `API key ${keyName} revoked`);
            else void action.run(() => data.removePasskey(user.id, item.id), `passkey ${keyName} removed`);
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
      {mode === "reset-2fa" ? (
        <Confirm
          question={`Remove the second factor of ${user.email}? They sign in with the password alone until they enable it again.`}
          onAnswer={(yes) => {
            finish();
            if (yes) void action.run(() => data.resetTwoFactor(user.id), `two-factor removed for ${user.email}`);
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
