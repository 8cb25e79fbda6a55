import type { AdminData, UserOverview } from "../../data.ts";
import { Confirm, Prompt } from "../components/Prompt.tsx";
import type { ActionState } from "../hooks/use-action.ts";
import { BanDialog, IssueKeyDialog } from "./Dialogs.tsx";
import type { Navigation } from "./navigation.ts";
import type { Focus } from "./UserDetailLists.tsx";

export type Mode = "browse" | "ban" | "role" | "issue-key" | "delete" | "revoke-all" | "revoke-one" | "reset-2fa";

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

interface DialogsProps {
  data: AdminData;
  nav: Navigation;
  user: UserOverview["user"];
  info: UserOverview;
  mode: Mode;
  focus: Focus;
  /** The row under the cursor in the focused list. */
  item: { id: string; name?: string | null } | undefined;
  action: ActionState;
  /** Back to browsing. */
  finish(): void;
  /** A key was issued: show it once. */
  onIssued(key: string): void;
}

/** The dialog of the admin action chosen on UserDetailScreen (none while browsing). */
export function UserDetailDialogs(props: DialogsProps) {
  return (
    <>
      <InputDialogs {...props} />
      <ConfirmDialogs {...props} />
    </>
  );
}

/** The actions that ask for a value: a ban, a role, a new API key's options. */
function InputDialogs({ data, user, mode, action, finish, onIssued }: DialogsProps) {
  return (
    <>
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
              onIssued(created.key);
              return user.banned ? "API key issued (refused while the ban lasts)" : "API key issued";
            });
          }}
        />
      ) : null}
    </>
  );
}

/** The actions that ask only for a yes: revoking, removing the second factor, deleting the user. */
function ConfirmDialogs({ data, nav, user, info, mode, focus, item, action, finish }: DialogsProps) {
  const keyName = item && "name" in item && item.name ? item.name : item?.id;
  return (
    <>
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
    </>
  );
}
