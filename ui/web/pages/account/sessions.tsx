import { useState } from "react";
import { toMinute } from "../../../shared/dates.ts";
import type { Translate } from "../../../shared/messages/index.ts";
import { parseUserAgent } from "../../../shared/user-agent.ts";
import { go } from "../../api.ts";
import { ButtonForm, type SectionOutcome, useAccountSection } from "../../components/account-section.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { HiddenFields, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import type { AccountSessionRow, StateOf } from "../../state.ts";

// The sessions section (/account/sessions): each signed-in browser or device, this one marked, with a
// button to sign it out, and buttons for every other one and for all. With JavaScript the buttons call
// revoke-session, revoke-other-sessions and revoke-sessions, and the list changes in place.

/** "Firefox on Windows", or what the user agent tells of it. */
export function deviceName(t: Translate, userAgent: string): string {
  const { browser, os } = parseUserAgent(userAgent);
  if (browser && os) return t("session.device", { browser, os });
  return browser ?? os ?? t("session.unknownDevice");
}

function SessionEntry({
  row,
  onRevoke,
  busy,
}: {
  row: AccountSessionRow;
  onRevoke: (event: React.FormEvent<HTMLFormElement>) => void;
  busy: boolean;
}) {
  const { t, state } = usePage();
  const device = deviceName(t, row.userAgent);
  const headingId = `authd-session-${row.handle.replace(/[^A-Za-z0-9_-]/g, "")}`;
  return (
    <li className="authd-session">
      <h2 id={headingId} className="authd-session-device">
        {device}
        {row.current ? <span className="authd-badge"> {t("session.thisBrowser")}</span> : null}
      </h2>
      <dl className="authd-facts">
        <dt>{t("session.address")}</dt>
        <dd>{row.ipAddress || "-"}</dd>
        <dt>{t("session.started")}</dt>
        <dd>{t("session.utc", { time: toMinute(row.createdAt) ?? "-" })}</dd>
        <dt>{t("session.lastActive")}</dt>
        <dd>{t("session.utc", { time: toMinute(row.updatedAt) ?? "-" })}</dd>
      </dl>
      {row.current ? null : (
        <form method="post" action={`${state.paths.pages}/sessions/revoke`} onSubmit={onRevoke}>
          <HiddenFields />
          <input type="hidden" name="session" value={row.handle} />
          <button
            type="submit"
            className="authd-button authd-button-secondary"
            aria-describedby={headingId}
            aria-disabled={busy || undefined}
          >
            {t("action.signOutSession")}
          </button>
        </form>
      )}
    </li>
  );
}

export function AccountSessionsPage({ state }: { state: StateOf<"account-sessions"> }) {
  const { t } = usePage();
  const section = useAccountSection("sessions", state);
  const [sessions, setSessions] = useState(state.sessions);
  const { client, busy } = section;
  const pages = state.paths.pages;

  const revoke = section.submit(async (fields): Promise<SectionOutcome> => {
    const handle = fields.session ?? "";
    const answer = await client().revokeSession({ token: handle });
    if (answer.error) return section.refusal(answer.error);
    setSessions((rows) => rows.filter((row) => row.handle !== handle));
    return { notice: "notice.account.sessionRevoked" };
  });
  const revokeOthers = section.submit(async (): Promise<SectionOutcome> => {
    const answer = await client().revokeOtherSessions();
    if (answer.error) return section.refusal(answer.error);
    setSessions((rows) => rows.filter((row) => row.current));
    return { notice: "notice.account.otherSessionsRevoked" };
  });
  const revokeAll = section.submit(async (): Promise<SectionOutcome> => {
    const answer = await client().revokeSessions();
    if (answer.error) return section.refusal(answer.error);
    return go(`${pages}/signed-out`);
  });

  const others = sessions.some((row) => !row.current);
  return (
    <AccountShell section="sessions" account={section.account}>
      <ProblemMessage problem={section.problem} id="authd-form-problem" />
      <p>{t("account.sessions.intro")}</p>
      <ul className="authd-sessions">
        {sessions.map((row) => (
          <SessionEntry key={row.handle} row={row} onRevoke={revoke} busy={busy} />
        ))}
      </ul>
      {others ? null : <p className="authd-hint">{t("account.sessions.onlyThis")}</p>}
      <div className="authd-choices">
        {others ? (
          <ButtonForm
            action={`${pages}/sessions/revoke-others`}
            label="action.signOutOthers"
            onSubmit={revokeOthers}
            busy={busy}
          />
        ) : null}
        <ButtonForm
          action={`${pages}/sessions/revoke-all`}
          label="action.signOutAll"
          onSubmit={revokeAll}
          busy={busy}
        />
      </div>
    </AccountShell>
  );
}
