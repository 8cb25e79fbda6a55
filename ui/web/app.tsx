import { PageProvider } from "./components/page-context.tsx";
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
import { DeleteAccountPage } from "./pages/delete-account.tsx";
import { DevOutboxPage } from "./pages/dev-outbox.tsx";
import { InvitationPage } from "./pages/invitation.tsx";
import { ForgotPasswordPage, ResetPasswordPage } from "./pages/password-reset.tsx";
import { EmailCodePage, MagicLinkPage } from "./pages/passwordless.tsx";
import { SignInPage } from "./pages/sign-in.tsx";
import { SignUpPage } from "./pages/sign-up.tsx";
import { CheckMailPage, ErrorPage, SignedInPage, SignedOutPage } from "./pages/simple.tsx";
import { TwoFactorPage } from "./pages/two-factor.tsx";
import { VerifyEmailCodePage, VerifyEmailPage } from "./pages/verify-email.tsx";
import type { PageState } from "./state.ts";

// One component for every page: the server renders it to HTML, the browser hydrates the same tree.

function Page({ state }: { state: PageState }) {
  switch (state.page) {
    case "sign-in":
      return <SignInPage state={state} />;
    case "sign-up":
      return <SignUpPage state={state} />;
    case "signed-out":
      return <SignedOutPage />;
    case "signed-in":
      return <SignedInPage state={state} />;
    case "forgot-password":
      return <ForgotPasswordPage state={state} />;
    case "check-mail":
      return <CheckMailPage state={state} />;
    case "reset-password":
      return <ResetPasswordPage state={state} />;
    case "verify-email":
      return <VerifyEmailPage state={state} />;
    case "delete-account":
      return <DeleteAccountPage state={state} />;
    case "error":
      return <ErrorPage state={state} />;
    case "invitation":
      return <InvitationPage state={state} />;
    case "two-factor":
      return <TwoFactorPage state={state} />;
    case "magic-link":
      return <MagicLinkPage state={state} />;
    case "email-code":
      return <EmailCodePage state={state} />;
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
    case "verify-email-code":
      return <VerifyEmailCodePage state={state} />;
  }
}

export function PageApp({ state }: { state: PageState }) {
  return (
    <PageProvider state={state}>
      <Page state={state} />
    </PageProvider>
  );
}
