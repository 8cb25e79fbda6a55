import { type AccountFrame, type AccountSection, accountSectionPath } from "../state.ts";
import { HiddenFields } from "./form.tsx";
import { type MessageKey, usePage } from "./page-context.tsx";
import { Notice } from "./shell.tsx";

// The frame of every section of the account page: the app's name or logo, who is signed in, the sections
// this deployment offers (the current one marked), sign out, and the section itself with its heading.

export const ACCOUNT_SECTION_TITLES: Record<AccountSection, MessageKey> = {
  profile: "account.section.profile",
  password: "account.section.password",
  "second-factor": "account.section.secondFactor",
  passkeys: "account.section.passkeys",
  sessions: "account.section.sessions",
  "linked-accounts": "account.section.linkedAccounts",
  "api-keys": "account.section.apiKeys",
  organizations: "account.section.organizations",
  activity: "account.section.activity",
  delete: "account.section.delete",
};

export function AccountShell({
  section,
  account,
  children,
}: {
  section: AccountSection;
  account: AccountFrame;
  children: React.ReactNode;
}) {
  const { t, state } = usePage();
  const { appName, logoURL } = state.branding;
  return (
    <div className="authd-account">
      <header className="authd-account-header">
        {logoURL ? (
          <img className="authd-logo" src={logoURL} alt={appName} />
        ) : (
          <p className="authd-app-name">{appName}</p>
        )}
        <div className="authd-account-user">
          <p className="authd-account-name">{account.user.name || account.user.email}</p>
          {account.user.name ? <p className="authd-account-email">{account.user.email}</p> : null}
          <form method="post" action={`${state.paths.pages}/sign-out`} className="authd-account-sign-out">
            <HiddenFields />
            <button type="submit" className="authd-button authd-button-secondary">
              {t("action.signOut")}
            </button>
          </form>
        </div>
      </header>
      <nav className="authd-account-nav" aria-label={t("account.nav")}>
        <ul>
          {account.sections.map((each) => (
            <li key={each}>
              <a
                className="authd-account-link"
                href={`${state.paths.pages}${accountSectionPath(each)}`}
                aria-current={each === section ? "page" : undefined}
              >
                {t(ACCOUNT_SECTION_TITLES[each])}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="authd-card authd-account-main" aria-labelledby="authd-title">
        <h1 id="authd-title" className="authd-title">
          {t(ACCOUNT_SECTION_TITLES[section])}
        </h1>
        {account.notice ? <Notice>{t(account.notice as MessageKey)}</Notice> : null}
        {children}
      </main>
    </div>
  );
}
