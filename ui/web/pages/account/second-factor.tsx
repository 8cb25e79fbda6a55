import { useState } from "react";
import { apiClient, go } from "../../api.ts";
import { AccountShell } from "../../components/account-shell.tsx";
import { ProblemMessage } from "../../components/form.tsx";
import { usePage, usePageHref } from "../../components/page-context.tsx";
import { Notice } from "../../components/shell.tsx";
import type { StateOf } from "../../state.ts";
import { BackupCodes } from "./backup-codes.tsx";
import {
  ConfirmForm,
  PasswordForm,
  refusalOf,
  SECTION_PATH,
  sectionWithNotice,
  TrustedBrowsers,
} from "./second-factor-forms.tsx";

// The second-factor section (/account/second-factor): off, it offers to set up an authenticator app (the
// password first); the answer to that form is the enrolment (the QR code the server drew, the key as
// text, the backup codes, and the field for the first code); on, it shows the backup codes left, new ones,
// the trusted browsers and turning it off.

type State = StateOf<"account-second-factor">;

export function AccountSecondFactorPage({ state }: { state: State }) {
  const { secondFactor } = state;
  return (
    <AccountShell section="second-factor" account={state.account}>
      <ProblemMessage problem={secondFactor.failedForm ? null : state.problem} id="authd-problem-section" />
      {secondFactor.enrolment ? (
        <Enrolment state={state} enrolment={secondFactor.enrolment} />
      ) : secondFactor.enabled ? (
        <TurnedOn state={state} />
      ) : (
        <TurnedOff state={state} />
      )}
    </AccountShell>
  );
}

function TurnedOff({ state }: { state: State }) {
  const { t } = usePage();
  const href = usePageHref();
  const passwordSection = state.account.sections.includes("password");
  return (
    <>
      <p className="authd-text">{t("account.secondFactor.off")}</p>
      {state.secondFactor.hasPassword ? (
        <PasswordForm
          state={state}
          form="enable"
          button="account.secondFactor.start"
          hint="account.secondFactor.passwordHint"
        />
      ) : (
        <p className="authd-text">
          {t("account.secondFactor.needsPassword")}{" "}
          {passwordSection ? <a href={href("/password")}>{t("account.secondFactor.setPassword")}</a> : null}
        </p>
      )}
    </>
  );
}

type Enrolling = NonNullable<State["secondFactor"]["enrolment"]>;

function Enrolment({ state, enrolment }: { state: State; enrolment: Enrolling }) {
  const { t } = usePage();
  const href = usePageHref();
  const { qr } = enrolment;
  const confirm = async (code: string) => {
    const answer = await apiClient(state.paths.api).twoFactor.verifyTotp({ code });
    if (answer.error) return refusalOf(state, answer.error);
    return go(sectionWithNotice(state, "notice.account.twoFactorOn"));
  };
  return (
    <>
      <h2 className="authd-subtitle-heading">{t("account.secondFactor.scanTitle")}</h2>
      <svg
        className="authd-qr"
        viewBox={`0 0 ${qr.size} ${qr.size}`}
        role="img"
        aria-label={t("account.secondFactor.qrLabel")}
      >
        <rect width={qr.size} height={qr.size} fill="#ffffff" />
        <path d={qr.path} fill="#000000" shapeRendering="crispEdges" />
      </svg>
      <p className="authd-text">{t("account.secondFactor.manualKey")}</p>
      <p>
        <code className="authd-totp-secret" id="authd-totp-secret">
          {enrolment.secret.match(/.{1,4}/g)?.join(" ")}
        </code>
      </p>
      <p>
        <a href={enrolment.uri}>{t("account.secondFactor.openApp")}</a>
      </p>
      <h2 className="authd-subtitle-heading">{t("account.secondFactor.saveCodesTitle")}</h2>
      <p className="authd-text">{t("account.secondFactor.saveCodes")}</p>
      <BackupCodes codes={enrolment.backupCodes} />
      <h2 className="authd-subtitle-heading">{t("account.secondFactor.confirmTitle")}</h2>
      <ConfirmForm state={state} send={confirm} />
      <p className="authd-links">
        <a href={href(SECTION_PATH)}>{t("account.secondFactor.cancel")}</a>
      </p>
    </>
  );
}

function TurnedOn({ state }: { state: State }) {
  const { t } = usePage();
  const { secondFactor } = state;
  const [newCodes, setNewCodes] = useState(secondFactor.newBackupCodes);
  const client = () => apiClient(state.paths.api).twoFactor;
  const makeCodes = async (password: string) => {
    const answer = await client().generateBackupCodes({ password });
    if (answer.error) return refusalOf(state, answer.error);
    setNewCodes(answer.data.backupCodes);
    return null;
  };
  const turnOff = async (password: string) => {
    const answer = await client().disable({ password });
    if (answer.error) return refusalOf(state, answer.error);
    return go(sectionWithNotice(state, "notice.account.twoFactorOff"));
  };
  return (
    <>
      <p className="authd-text">{t("account.secondFactor.on")}</p>
      {secondFactor.mailedCodes ? (
        <p className="authd-text">{t("account.secondFactor.mailedCodes", { email: state.account.user.email })}</p>
      ) : null}
      <section className="authd-account-part" aria-labelledby="authd-codes-title">
        <h2 id="authd-codes-title" className="authd-subtitle-heading">
          {t("account.secondFactor.backupCodesTitle")}
        </h2>
        {newCodes ? (
          <>
            <Notice>{t("account.secondFactor.newCodesShown")}</Notice>
            <BackupCodes codes={newCodes} />
          </>
        ) : (
          <p className="authd-text">
            {t("account.secondFactor.codesLeft", { count: secondFactor.backupCodesLeft ?? 0 })}
          </p>
        )}
        <PasswordForm
          state={state}
          form="backup-codes"
          button="account.secondFactor.newCodes"
          hint="account.secondFactor.newCodesHint"
          secondary
          send={makeCodes}
        />
      </section>
      <TrustedBrowsers state={state} />
      <section className="authd-account-part" aria-labelledby="authd-off-title">
        <h2 id="authd-off-title" className="authd-subtitle-heading">
          {t("account.secondFactor.turnOffTitle")}
        </h2>
        <PasswordForm
          state={state}
          form="disable"
          button="account.secondFactor.turnOff"
          hint="account.secondFactor.turnOffHint"
          secondary
          send={turnOff}
        />
      </section>
    </>
  );
}
