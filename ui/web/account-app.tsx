import type { AccountPageState } from "./bundles.ts";
import { AccountActivityPage } from "./pages/account/activity.tsx";
import { AccountApiKeysPage } from "./pages/account/api-keys.tsx";
import { AccountDeletePage } from "./pages/account/delete.tsx";
import { AccountLinkedAccountsPage } from "./pages/account/linked-accounts.tsx";
import { AccountOrganizationsPage } from "./pages/account/organizations.tsx";
import { AccountPasskeysPage } from "./pages/account/passkeys.tsx";
import { AccountPasswordPage } from "./pages/account/password.tsx";
import { AccountProfilePage } from "./pages/account/profile.tsx";
import { ReauthenticatePage } from "./pages/account/reauthenticate.tsx";
import { AccountSecondFactorPage } from "./pages/account/second-factor.tsx";
import { AccountSessionsPage } from "./pages/account/sessions.tsx";
import { DevOutboxPage } from "./pages/dev-outbox.tsx";

// The account page's sections, re-authentication and the development outbox: a bundle of their own
// (client/account.tsx), so the sign-in page's script does not carry them.

export function AccountPage({ state }: { state: AccountPageState }) {
  switch (state.page) {
    case "account-profile":
      return <AccountProfilePage state={state} />;
    case "account-linked-accounts":
      return <AccountLinkedAccountsPage state={state} />;
    case "account-api-keys":
      return <AccountApiKeysPage state={state} />;
    case "account-organizations":
      return <AccountOrganizationsPage state={state} />;
    case "account-activity":
      return <AccountActivityPage state={state} />;
    case "account-second-factor":
      return <AccountSecondFactorPage state={state} />;
    case "account-passkeys":
      return <AccountPasskeysPage state={state} />;
    case "account-password":
      return <AccountPasswordPage state={state} />;
    case "account-sessions":
      return <AccountSessionsPage state={state} />;
    case "account-delete":
      return <AccountDeletePage state={state} />;
    case "account-reauthenticate":
      return <ReauthenticatePage state={state} />;
    case "dev-outbox":
      return <DevOutboxPage state={state} />;
  }
}
