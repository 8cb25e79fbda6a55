import { useState } from "react";
import { apiClient, go, problemOf } from "../api.ts";
import { HiddenFields, ProblemMessage, useSubmission } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// An organization invitation, answered by its invitee. Signed out, the page tells nothing about the
// invitation (the API shows it to its signed-in recipient only) and offers to sign in or sign up, then come
// back. Signed in, it shows what get-invitation answers and two forms, Accept and Decline, that post to the
// page routes (without JavaScript) or call accept-invitation and reject-invitation (with it).

type InvitationState = StateOf<"invitation">;

export function InvitationPage({ state }: { state: InvitationState }) {
  const { t } = usePage();
  const backToApp = (
    <a href={state.redirect ?? state.home}>{t("action.backToApp", { appName: state.branding.appName })}</a>
  );
  if (state.done === "rejected")
    return (
      <Shell title="page.title.invitation">
        <Notice>{t("notice.invitationRejected")}</Notice>
        <Links>{backToApp}</Links>
      </Shell>
    );
  if (state.email === null)
    return (
      <Shell title="page.title.invitation">
        <Notice>{t("notice.invitationSignIn")}</Notice>
        <Links>
          <a href={state.signIn}>{t("action.signIn")}</a>
          <a href={state.signUp}>{t("action.signUp")}</a>
        </Links>
      </Shell>
    );
  return <AnswerInvitation state={state} email={state.email} backToApp={backToApp} />;
}

function AnswerInvitation({
  state,
  email,
  backToApp,
}: {
  state: InvitationState;
  email: string;
  backToApp: React.ReactNode;
}) {
  const { t } = usePage();
  const href = usePageHref();
  const [last, setLast] = useState<"accept" | "reject">("accept");
  const organization = () => apiClient(state.paths.api).organization;
  const invitationId = state.invitationId;
  const accept = useSubmission(state.problem, async () => {
    const answer = await organization().acceptInvitation({ invitationId });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    return go(state.redirect ?? state.home);
  });
  const reject = useSubmission(null, async () => {
    const answer = await organization().rejectInvitation({ invitationId });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    return go(href(`/invitation/${encodeURIComponent(invitationId)}`, { done: "rejected" }));
  });
  const { invitation } = state;
  return (
    <Shell title="page.title.invitation">
      <ProblemMessage problem={last === "accept" ? accept.problem : reject.problem} id="authd-form-problem" />
      {invitation ? (
        <p className="authd-text">
          {t("notice.invitation", {
            inviter: invitation.inviterEmail,
            organization: invitation.organizationName,
            role: invitation.role,
          })}
        </p>
      ) : null}
      <p className="authd-hint">{t("notice.signedInAs", { email })}</p>
      {invitation ? (
        <div className="authd-choices">
          <form
            method="post"
            action={href("/invitation/accept")}
            className="authd-form"
            onSubmit={(event) => {
              setLast("accept");
              accept.onSubmit(event);
            }}
          >
            <HiddenFields />
            <input type="hidden" name="invitationId" value={invitationId} />
            <SubmitButton label="action.acceptInvitation" busy={accept.busy} />
          </form>
          <form
            method="post"
            action={href("/invitation/reject")}
            className="authd-form"
            onSubmit={(event) => {
              setLast("reject");
              reject.onSubmit(event);
            }}
          >
            <HiddenFields />
            <input type="hidden" name="invitationId" value={invitationId} />
            <button
              type="submit"
              className="authd-button authd-button-secondary"
              aria-disabled={reject.busy || undefined}
            >
              {t("action.rejectInvitation")}
            </button>
          </form>
        </div>
      ) : (
        // Refused (another account's invitation, say): signing out comes back here to sign in as the invitee.
        <form method="post" action={href("/sign-out")} className="authd-form">
          <input type="hidden" name="csrf" value={state.csrf} />
          <input type="hidden" name="redirect" value={state.here} />
          <SubmitButton label="action.signOut" />
        </form>
      )}
      <Links>{backToApp}</Links>
    </Shell>
  );
}
