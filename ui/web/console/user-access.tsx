import { describeDevice } from "../../shared/devices.ts";
import { type ConsoleUserState, mayDo } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ConfirmBox, minute, Section, UserForm } from "./user-parts.tsx";

// What a user holds to get in: their live sessions (each revocable, or all at once), their second factor,
// passkeys, linked accounts and organizations.

export function SessionsSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  const may = mayDo(frame, "session", "revoke");
  return (
    <Section id="sessions" title="console.user.sessions">
      {state.sessions.length === 0 ? (
        <p>{t("console.user.noSessions")}</p>
      ) : (
        <table className="authd-console-table">
          <thead>
            <tr>
              <th scope="col">{t("console.user.session.device")}</th>
              <th scope="col">{t("console.user.session.address")}</th>
              <th scope="col">{t("console.user.session.started")}</th>
              <th scope="col">{t("console.user.session.expires")}</th>
              {may ? <th scope="col">{t("console.actions")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {state.sessions.map((session) => {
              const device = describeDevice(session.userAgent);
              return (
                <tr key={session.id}>
                  <td>
                    {[device.browser, device.system].filter(Boolean).join(" · ") || t("console.user.session.unknown")}
                    {session.impersonatedBy ? (
                      <span className="authd-console-secondary">
                        {t("console.user.session.impersonated", { admin: session.impersonatedBy })}
                      </span>
                    ) : null}
                  </td>
                  <td>{session.ipAddress || t("console.none")}</td>
                  <td>{minute(session.createdAt, "")}</td>
                  <td>{minute(session.expiresAt, "")}</td>
                  {may ? (
                    <td>
                      <UserForm
                        verb="revoke-session"
                        form={`session-${session.id}`}
                        label="console.user.session.revoke"
                        fields={{ sessionId: session.id }}
                      />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {may && state.sessions.length > 0 ? (
        <UserForm verb="revoke-sessions" form="sessions" label="console.user.session.revokeAll" danger>
          <ConfirmBox />
        </UserForm>
      ) : null}
    </Section>
  );
}

export function CredentialsSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  const { secondFactor, features } = state;
  return (
    <Section id="credentials" title="console.user.credentials">
      {features.twoFactor && secondFactor ? (
        <>
          <h3 className="authd-console-subheading">{t("console.user.secondFactor")}</h3>
          <p>
            {secondFactor.enabled
              ? t("console.user.secondFactorOn", {
                  codes: secondFactor.backupCodes,
                  browsers: secondFactor.trustedBrowsers,
                })
              : t("console.user.secondFactorOff")}
          </p>
          {mayDo(frame, "user", "reset-two-factor") && (secondFactor.enabled || secondFactor.trustedBrowsers > 0) ? (
            <UserForm verb="reset-second-factor" form="second-factor" label="console.user.secondFactorReset" danger>
              <ConfirmBox />
            </UserForm>
          ) : null}
        </>
      ) : null}
      {features.passkeys ? <Passkeys state={state} /> : null}
      <h3 className="authd-console-subheading">{t("console.user.accounts")}</h3>
      {state.accounts.length === 0 ? (
        <p>{t("console.none")}</p>
      ) : (
        <ul className="authd-console-list">
          {state.accounts.map((account) => (
            <li key={account.id}>
              {account.providerId === "credential"
                ? t("console.user.password")
                : t("console.user.provider", { provider: account.providerId, account: account.accountId })}
            </li>
          ))}
        </ul>
      )}
      {features.organizations ? (
        <>
          <h3 className="authd-console-subheading">{t("console.user.organizations")}</h3>
          {state.organizations.length === 0 ? (
            <p>{t("console.none")}</p>
          ) : (
            <ul className="authd-console-list">
              {state.organizations.map((membership) => (
                <li key={membership.organizationId}>
                  {t("console.user.membership", {
                    name: membership.name,
                    slug: membership.slug,
                    role: membership.role,
                  })}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </Section>
  );
}

function Passkeys({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  const may = mayDo(frame, "user", "set-password");
  return (
    <>
      <h3 className="authd-console-subheading">{t("console.user.passkeys")}</h3>
      {state.passkeys.length === 0 ? (
        <p>{t("console.none")}</p>
      ) : (
        <ul className="authd-console-list">
          {state.passkeys.map((passkey) => (
            <li key={passkey.id}>
              {t("console.user.passkey", {
                name: passkey.name || t("console.user.passkeyUnnamed"),
                created: minute(passkey.createdAt, t("console.never")),
              })}
              {may ? (
                <UserForm
                  verb="remove-passkey"
                  form={`passkey-${passkey.id}`}
                  label="console.user.passkeyRemove"
                  fields={{ passkeyId: passkey.id }}
                  danger
                >
                  <ConfirmBox />
                </UserForm>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
