import { AccountShell } from "../../components/account-shell.tsx";
import { usePage } from "../../components/page-context.tsx";
import type { StateOf } from "../../state.ts";

// The account page itself: who the user is. (Editing the profile and the address comes with its forms.)

export function AccountProfilePage({ state }: { state: StateOf<"account-profile"> }) {
  const { t } = usePage();
  const { user } = state.account;
  return (
    <AccountShell section="profile" account={state.account}>
      <dl className="authd-facts">
        <dt>{t("field.name")}</dt>
        <dd>{user.name}</dd>
        <dt>{t("field.email")}</dt>
        <dd>{user.email}</dd>
      </dl>
    </AccountShell>
  );
}
