import { toDay } from "../../../shared/dates.ts";
import { apiClient } from "../../api.ts";
import { ItemForm, useAccountActions } from "../../components/account-actions.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { HiddenFields, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import type { StateOf } from "../../state.ts";

// The linked accounts: the password (when the account has one) and each provider's account, with Unlink;
// a button per configured provider not linked yet. Linking leaves for the provider, which sends the
// browser back here. With JavaScript, unlink and link go through POST /unlink-account and /link-social.

const CREDENTIAL = "credential";

export function AccountLinkedAccountsPage({ state }: { state: StateOf<"account-linked-accounts"> }) {
  const { t } = usePage();
  const actions = useAccountActions("linked-accounts");
  const client = () => apiClient(state.paths.api);
  const unlink = actions.act(
    (fields) => client().unlinkAccount({ providerId: fields.providerId, accountId: fields.accountId }),
    () => actions.reload("notice.account.accountUnlinked"),
  );
  // The answer is { url, redirect: true }: the client itself sends the browser on to the provider.
  const link = actions.act(
    (fields) =>
      client().linkSocial({
        provider: fields.provider,
        callbackURL: `${actions.here}?notice=notice.account.accountLinked`,
        errorCallbackURL: actions.here,
      }),
    () => undefined,
  );
  const pages = state.paths.pages;
  return (
    <AccountShell section="linked-accounts" account={state.account}>
      <p className="authd-hint">{t("account.linked.explain", { appName: state.branding.appName })}</p>
      <ProblemMessage problem={actions.problem} id="authd-form-problem" />
      {state.linked.length === 0 ? <p className="authd-text">{t("account.linked.none")}</p> : null}
      <ul className="authd-items">
        {state.linked.map((account) => {
          const name = account.providerId === CREDENTIAL ? t("account.linked.password") : account.name;
          return (
            <li key={`${account.providerId}:${account.accountId}`} className="authd-item">
              <div className="authd-item-text">
                <p className="authd-item-name">{name}</p>
                <p className="authd-item-detail">
                  {t("account.linked.since", { date: toDay(account.createdAt) ?? "" })}
                </p>
              </div>
              {account.providerId === CREDENTIAL ? null : (
                <div className="authd-item-action">
                  <ItemForm
                    action={`${pages}/linked-accounts/unlink`}
                    onSubmit={unlink}
                    fields={{ providerId: account.providerId, accountId: account.accountId }}
                    label="action.unlink"
                    item={name}
                    busy={actions.busy}
                  />
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {state.linkable.length > 0 ? (
        <section aria-labelledby="authd-link-another">
          <h2 id="authd-link-another" className="authd-subheading">
            {t("account.linked.linkAnother")}
          </h2>
          <div className="authd-methods">
            {state.linkable.map((provider) => (
              <form key={provider.id} method="post" action={`${pages}/linked-accounts/link`} onSubmit={link}>
                <HiddenFields />
                <input type="hidden" name="provider" value={provider.id} />
                <button
                  type="submit"
                  className="authd-button authd-button-secondary"
                  aria-disabled={actions.busy || undefined}
                >
                  {t("action.linkProvider", { provider: provider.name })}
                </button>
              </form>
            ))}
          </div>
        </section>
      ) : null}
    </AccountShell>
  );
}
