import { type ConsoleUserState, consoleHref, mayDo } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ConsoleShell } from "./shell.tsx";
import { CredentialsSection, SessionsSection } from "./user-access.tsx";
import { ApiKeysSection } from "./user-keys.tsx";
import { Choice, ConfirmBox, duration, Facts, Input, minute, Section, UserForm } from "./user-parts.tsx";
import { TimelineSection } from "./user-timeline.tsx";

// A user's screen (/console/users/:id): who they are and their standing, then what they hold (sessions, API
// keys, second factor, passkeys, linked accounts, organizations), their timeline, and the forms that act on
// them, each shown only to an admin who holds its permission. Every form works without JavaScript.

export function ConsoleUserScreen({ state }: { state: ConsoleUserState }) {
  const { t } = useConsole();
  const { user } = state;
  return (
    <ConsoleShell screen="users" title={user.name || user.email}>
      <p>
        <a href={consoleHref("/users")}>{t("console.user.back")}</a>
      </p>
      <ProfileSection state={state} />
      <StandingSection state={state} />
      <ImpersonateSection state={state} />
      <SessionsSection state={state} />
      {state.features.apiKeys ? <ApiKeysSection state={state} /> : null}
      <CredentialsSection state={state} />
      <TimelineSection state={state} />
      <DeleteSection state={state} />
    </ConsoleShell>
  );
}

function ProfileSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  const { user, features } = state;
  const verified = user.emailVerified ? t("console.user.verified") : t("console.user.unverified");
  return (
    <Section id="profile" title="console.user.profile">
      <Facts
        rows={[
          ["console.user.email", `${user.email} · ${verified}`],
          ["console.user.name", user.name || t("console.none")],
          ...(user.username !== null ? [["console.user.username", user.username] as const] : []),
          ["console.user.role", user.role ?? "user"],
          ["console.user.id", <code key="id">{user.id}</code>],
          ["console.user.created", minute(user.createdAt, t("console.never"))],
        ]}
      />
      <div className="authd-console-forms">
        {!user.emailVerified && mayDo(frame, "user", "update") ? (
          <UserForm verb="verify-email" form="verify-email" label="console.user.verify">
            <p className="authd-hint">{t("console.user.verifyHint")}</p>
          </UserForm>
        ) : null}
        {features.passwords && mayDo(frame, "user", "set-password") ? (
          <>
            <UserForm verb="send-password-reset" form="reset" label="console.user.sendReset" />
            <UserForm verb="set-password" form="password" label="console.user.setPassword">
              <Input
                name="password"
                type="password"
                label="console.user.newPassword"
                autoComplete="new-password"
                required
              />
            </UserForm>
          </>
        ) : null}
        {mayDo(frame, "user", "set-role") ? (
          <UserForm verb="set-role" form="role" label="console.user.setRole">
            <Choice
              name="role"
              label="console.user.role"
              value={user.role ?? "user"}
              options={state.roles.map((role) => [role, role])}
            />
          </UserForm>
        ) : null}
      </div>
    </Section>
  );
}

const BAN_LENGTHS = [3600, 86_400, 604_800, 2_592_000];

function StandingSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  const { user } = state;
  const may = mayDo(frame, "user", "ban");
  return (
    <Section id="standing" title="console.user.standing">
      {user.banned ? (
        <Facts
          rows={[
            ["console.user.banned", user.banReason || t("console.none")],
            ["console.user.banEnds", minute(user.banExpires, t("console.user.banForever"))],
          ]}
        />
      ) : (
        <p>{t("console.user.notBanned")}</p>
      )}
      {may && user.banned ? <UserForm verb="unban" form="unban" label="console.user.unban" /> : null}
      {may && !user.banned ? (
        <UserForm verb="ban" form="ban" label="console.user.ban" danger>
          <Input name="reason" label="console.user.banReason" maxLength={500} />
          <Choice
            name="expires"
            label="console.user.banLength"
            value="86400"
            options={[
              ...BAN_LENGTHS.map((seconds): [string, string] => [String(seconds), duration(t, seconds)]),
              ["", t("console.user.banForever")],
            ]}
          />
          <p className="authd-hint">{t("console.user.banHint")}</p>
          <ConfirmBox />
        </UserForm>
      ) : null}
    </Section>
  );
}

function ImpersonateSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  if (!mayDo(frame, "user", "impersonate")) return null;
  const choices = state.impersonationDurations;
  const preferred = choices.includes(3600) ? 3600 : choices[choices.length - 1];
  return (
    <Section id="impersonate" title="console.user.impersonate">
      <p className="authd-hint">{t("console.user.impersonateHint")}</p>
      <UserForm verb="impersonate" form="impersonate" label="console.user.impersonateAction">
        <Input name="reason" label="console.user.impersonateReason" required maxLength={500} />
        <Choice
          name="duration"
          label="console.user.impersonateLength"
          value={String(preferred)}
          options={choices.map((seconds) => [String(seconds), duration(t, seconds)])}
        />
      </UserForm>
    </Section>
  );
}

function DeleteSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  if (!mayDo(frame, "user", "delete")) return null;
  return (
    <Section id="delete" title="console.user.delete">
      <p className="authd-hint">{t("console.user.deleteHint")}</p>
      <UserForm verb="delete" form="delete" label="console.user.deleteAction" danger>
        <Input name="email" type="email" label="console.user.deleteEmail" required autoComplete="off" />
      </UserForm>
      <p className="authd-console-secondary">{t("console.user.deleteTyped", { email: state.user.email })}</p>
    </Section>
  );
}
