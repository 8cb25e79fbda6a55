import type { MessageKey } from "../../shared/messages/index.ts";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Shell } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// The OpenID Provider's consent page: which application asks, for what, and where the answer goes. One
// form with two buttons; it posts to the page route with or without JavaScript (the answer is a redirect
// to the application, which a script could not follow any better).

type ConsentState = StateOf<"consent">;

const SCOPE_KEYS: Record<string, MessageKey> = {
  openid: "consent.scope.openid",
  profile: "consent.scope.profile",
  email: "consent.scope.email",
  offline_access: "consent.scope.offline_access",
  groups: "consent.scope.groups",
};

export function ConsentPage({ state }: { state: ConsentState }) {
  const { t } = usePage();
  const href = usePageHref();
  const appName = state.branding.appName;
  return (
    <Shell title="page.title.consent">
      <p className="authd-text">{t("consent.asks", { client: state.clientName, appName })}</p>
      <p className="authd-hint">{t("notice.signedInAs", { email: state.email })}</p>
      <p className="authd-text">{t("consent.wants")}</p>
      <ul className="authd-scopes">
        {state.scopes
          .filter((scope) => SCOPE_KEYS[scope])
          .map((scope) => (
            <li key={scope}>{t(SCOPE_KEYS[scope])}</li>
          ))}
      </ul>
      <p className="authd-hint">{t("consent.destination", { destination: state.destination })}</p>
      <form method="post" action={href("/consent")} className="authd-form">
        <input type="hidden" name="csrf" value={state.csrf} />
        {Object.entries(state.request).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="authd-choices">
          <button type="submit" name="decision" value="allow" className="authd-button">
            {t("consent.allow")}
          </button>
          <button type="submit" name="decision" value="deny" className="authd-button authd-button-secondary">
            {t("consent.deny")}
          </button>
        </div>
      </form>
    </Shell>
  );
}
