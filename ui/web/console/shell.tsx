import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { errorMessageKey } from "../../shared/messages/index.ts";
import { HiddenFields } from "../components/form.tsx";
import { CONSOLE_PATH, type ConsoleScreen } from "../console-state.ts";
import { useConsole } from "./context.tsx";

// The frame of every console screen: the app's name, who is signed in (with the way to their own account
// and out), the screens this admin may open (the current one marked), and the screen with its heading, the
// notice of what was just done and the refusal of the last form.

export const screenPath = (screen: ConsoleScreen): string => (screen === "overview" ? "" : `/${screen}`);

export function ConsoleShell({
  screen,
  title,
  children,
}: {
  screen: ConsoleScreen;
  /** The heading, when it is not the screen's name (a user's detail names the user). */
  title?: string;
  children: React.ReactNode;
}) {
  const { t, state, frame } = useConsole();
  const { appName, logoURL } = state.branding;
  const problem = state.problem && !state.problem.field ? state.problem : null;
  return (
    <div className="authd-console">
      <header className="authd-console-header">
        <p className="authd-console-brand">
          {logoURL ? <img className="authd-logo" src={logoURL} alt={appName} /> : <span>{appName}</span>}{" "}
          <span className="authd-console-badge">{t("console.title")}</span>
        </p>
        <div className="authd-console-admin">
          <span>{t("console.signedInAs", { email: frame.admin.email })}</span>
          <a href={state.paths.pages}>{t("console.account")}</a>
          <form method="post" action={`${state.paths.pages}/sign-out`}>
            <HiddenFields />
            <button type="submit" className="authd-button authd-button-secondary">
              {t("action.signOut")}
            </button>
          </form>
        </div>
      </header>
      <nav className="authd-console-nav" aria-label={t("console.nav")}>
        <ul>
          {frame.screens.map((each) => (
            <li key={each}>
              <a
                className="authd-console-link"
                href={`${CONSOLE_PATH}${screenPath(each)}`}
                aria-current={each === screen ? "page" : undefined}
              >
                {t(`console.screen.${each}` as AnyMessageKey)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="authd-console-main" aria-labelledby="authd-title">
        <h1 id="authd-title" className="authd-title">
          {title ?? t(`console.screen.${screen}` as AnyMessageKey)}
        </h1>
        {frame.notice ? (
          <p className="authd-notice" role="status">
            {t(frame.notice as AnyMessageKey)}
          </p>
        ) : null}
        <div className="authd-problem" role="alert" aria-live="assertive">
          {problem ? t(errorMessageKey(problem.code), { appName }) : null}
        </div>
        {children}
      </main>
    </div>
  );
}
