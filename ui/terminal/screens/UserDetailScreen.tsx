import { Box, Text } from "ink";
import { useState } from "react";
import type { AdminData, UserOverview } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { type KeyHint, KeyHints } from "../components/KeyHints.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useAsyncData } from "../hooks/use-async-data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import type { Navigation } from "./navigation.ts";
import { type Mode, UserDetailDialogs } from "./UserDetailDialogs.tsx";
import { type Focus, UserDetailLists } from "./UserDetailLists.tsx";

const NEXT_FOCUS: Record<Focus, Focus> = { sessions: "keys", keys: "passkeys", passkeys: "sessions" };
const FOCUS_LABEL: Record<Focus, string> = { sessions: "sessions", keys: "API keys", passkeys: "passkeys" };

/** The keys that open an action's dialog as they are (b, f and x depend on the user and the row). */
const MODE_KEYS = new Map<string, Mode>([
  ["r", "role"],
  ["k", "issue-key"],
  ["d", "delete"],
  ["a", "revoke-all"],
]);

function detailHints(user: UserOverview["user"], focus: Focus): KeyHint[] {
  return [
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
}

/** Who the user is: name, address, role, state, linked accounts and organizations. */
function UserHeader({ info }: { info: UserOverview }) {
  const user = info.user;
  return (
    <>
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
    </>
  );
}

/** A key just issued: shown this once, as the box says. */
function IssuedKey({ apiKey }: { apiKey: string }) {
  return (
    <Box borderStyle="round" borderColor="green" flexDirection="column" paddingX={1}>
      <Text color="green">new API key (shown once, copy it now):</Text>
      <Text bold>{apiKey}</Text>
    </Box>
  );
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

  const finish = () => setMode("browse");
  const item = focused[selected];
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
      const opened = MODE_KEYS.get(input);
      if (opened) return setMode(opened);
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

  return (
    <Box flexDirection="column">
      <UserHeader info={info} />
      <UserDetailLists info={info} focus={focus} selected={selected} tableRows={tableRows} width={columns} />
      {issuedKey ? <IssuedKey apiKey={issuedKey} /> : null}
      <UserDetailDialogs
        data={data}
        nav={nav}
        user={user}
        info={info}
        mode={mode}
        focus={focus}
        item={item}
        action={action}
        finish={finish}
        onIssued={setIssuedKey}
      />
      <StatusLine error={action.error ?? overview.error} notice={action.notice} busy={action.busy} />
      <KeyHints hints={detailHints(user, focus)} />
    </Box>
  );
}
