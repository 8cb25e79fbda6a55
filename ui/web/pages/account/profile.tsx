import { useState } from "react";
import { EMAIL_FIELDS } from "../../account.ts";
import {
  type AccountSectionForms,
  ButtonForm,
  type SectionOutcome,
  useAccountSection,
} from "../../components/account-section.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { Field, HiddenFields, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { SubmitButton } from "../../components/shell.tsx";
import { type AccountProfile, isProfileImageURL, type StateOf } from "../../state.ts";
import { LanguagePart } from "./language.tsx";

// The account page itself (/account): the profile (name, picture URL, username when usernames are on), the
// email address (its state, the confirmation link again, a change of address) and the language of the pages
// and mails. Without JavaScript each form posts to its page route; with it, update-user,
// send-verification-email and change-email are called (the language form posts either way: see language.tsx).

export function AccountProfilePage({ state }: { state: StateOf<"account-profile"> }) {
  const { t } = usePage();
  const section = useAccountSection("profile", state);
  const [profile, setProfile] = useState(state.profile);
  const { client, problem, busy } = section;
  const pages = state.paths.pages;

  const saveProfile = section.submit(async (fields): Promise<SectionOutcome> => {
    const name = (fields.name ?? "").trim();
    if (!name) return { problem: { code: "REQUIRED", field: "name" } };
    const image = (fields.image ?? "").trim();
    if (image && !isProfileImageURL(image)) return { problem: { code: "INVALID_IMAGE_URL", field: "image" } };
    // An empty username leaves it as it is (usernames are optional; one can be set, not removed, here).
    const typed = (fields.username ?? "").trim();
    const username = profile.username === null || !typed ? {} : { username: typed };
    const answer = await client().updateUser({ name, image: image || null, ...username });
    if (answer.error) return section.refusal(answer.error);
    setProfile((current) => ({ ...current, name, image: image || null, ...username }));
    return { notice: "notice.account.profileSaved", user: { name, image: image || null } };
  });

  return (
    <AccountShell section="profile" account={section.account}>
      <ProblemMessage problem={problem} id="authd-form-problem" />
      <h2 className="authd-section-title">{t("account.profile.heading")}</h2>
      <form method="post" action={`${pages}/profile`} className="authd-form" onSubmit={saveProfile} noValidate>
        <HiddenFields />
        <Field name="name" label="field.name" autoComplete="name" defaultValue={profile.name} problem={problem} />
        {profile.username === null ? null : (
          <Field
            name="username"
            label="field.username"
            autoComplete="username"
            defaultValue={profile.username}
            required={false}
            problem={problem}
          />
        )}
        <Field
          name="image"
          label="field.imageURL"
          type="url"
          autoComplete="photo"
          defaultValue={profile.image ?? ""}
          required={false}
          hint={t("hint.imageURL")}
          problem={problem}
        />
        <SubmitButton label="action.saveProfile" busy={busy} />
      </form>
      <EmailPart section={section} profile={profile} setProfile={setProfile} />
      <LanguagePart chosen={profile.language} problem={problem} />
    </AccountShell>
  );
}

/** The email address: its state, the confirmation link again while unconfirmed, and a change of address. */
function EmailPart({
  section,
  profile,
  setProfile,
}: {
  section: AccountSectionForms;
  profile: AccountProfile;
  setProfile: (update: (current: AccountProfile) => AccountProfile) => void;
}) {
  const { t, state } = usePage();
  const { client, problem, busy } = section;
  const pages = state.paths.pages;
  // Where the mailed links end once followed: this page (read when a form is sent: no window on the server).
  const accountPage = () => `${window.location.origin}${pages}`;

  const resend = section.submit(async (): Promise<SectionOutcome> => {
    const answer = await client().sendVerificationEmail({ email: profile.email, callbackURL: accountPage() });
    if (answer.error) return section.refusal(answer.error);
    return { notice: "notice.account.verificationSent" };
  });

  const changeEmail = section.submit(async (fields, form): Promise<SectionOutcome> => {
    const newEmail = (fields.newEmail ?? "").trim();
    const answer = await client().changeEmail({ newEmail, callbackURL: accountPage() });
    if (answer.error) return section.refusal(answer.error, EMAIL_FIELDS);
    form.reset();
    if (profile.emailVerified) return { notice: "notice.account.emailChangeConfirm" };
    setProfile((current) => ({ ...current, email: newEmail.toLowerCase() }));
    return { notice: "notice.account.emailChanged", user: { email: newEmail.toLowerCase() } };
  });

  return (
    <>
      <h2 className="authd-section-title">{t("account.email.heading")}</h2>
      <dl className="authd-facts">
        <dt>{t("field.email")}</dt>
        <dd>{profile.email}</dd>
        <dt>{t("account.email.state")}</dt>
        <dd>{t(profile.emailVerified ? "account.email.verified" : "account.email.unverified")}</dd>
      </dl>
      {profile.emailVerified ? null : (
        <ButtonForm action={`${pages}/email/verify`} label="action.resendVerification" onSubmit={resend} busy={busy} />
      )}
      {profile.changeEmail ? (
        <form method="post" action={`${pages}/email`} className="authd-form" onSubmit={changeEmail} noValidate>
          <HiddenFields />
          <Field
            name="newEmail"
            label="field.newEmail"
            type="email"
            autoComplete="email"
            hint={t(profile.emailVerified ? "hint.newEmailConfirm" : "hint.newEmailVerify")}
            problem={problem}
          />
          <SubmitButton label="action.changeEmail" busy={busy} />
        </form>
      ) : null}
    </>
  );
}
