import type { FrontDoorState } from "./bundles.ts";
import { ConsentPage } from "./pages/consent.tsx";
import { DeleteAccountPage } from "./pages/delete-account.tsx";
import { InvitationPage } from "./pages/invitation.tsx";
import { ForgotPasswordPage, ResetPasswordPage } from "./pages/password-reset.tsx";
import { EmailCodePage, MagicLinkPage } from "./pages/passwordless.tsx";
import { SignInPage } from "./pages/sign-in.tsx";
import { SignUpPage } from "./pages/sign-up.tsx";
import { CheckMailPage, ErrorPage, SignedInPage, SignedOutPage } from "./pages/simple.tsx";
import { TwoFactorPage } from "./pages/two-factor.tsx";
import { VerifyEmailCodePage, VerifyEmailPage } from "./pages/verify-email.tsx";

// The front door's pages (sign-in, sign-up, recovery, second factor, mailed links, invitations): the
// sign-in page's bundle (client/main.tsx) holds these and nothing of the account page.

export function FrontDoorPage({ state }: { state: FrontDoorState }) {
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
    case "verify-email-code":
      return <VerifyEmailCodePage state={state} />;
    case "consent":
      return <ConsentPage state={state} />;
  }
}
