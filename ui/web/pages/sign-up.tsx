import { apiClient, go, problemOf } from "../api.ts";
import { Field, HiddenFields, NewPasswordField, ProblemMessage, useSubmission } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// Create an account: name, email, password (its rules shown before submit), username when usernames are on.

export function SignUpPage({ state }: { state: StateOf<"sign-up"> }) {
  const { t } = usePage();
  const href = usePageHref();
  const submission = useSubmission(state.problem, async (fields) => {
    const callbackURL = state.redirect ?? state.home;
    const answer = await apiClient(state.paths.api).signUp.email({
      name: fields.name ?? "",
      email: (fields.email ?? "").trim(),
      password: fields.password ?? "",
      ...(state.username && fields.username ? { username: fields.username } : {}),
      callbackURL,
    });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    // No session yet: the address must be confirmed first.
    if (!(answer.data as { token?: string | null }).token) return go(href("/check-mail", { kind: "verify" }));
    return go(callbackURL);
  });
  return (
    <Shell title="page.title.signUp" subtitle={t("page.subtitle.signUp", { appName: state.branding.appName })}>
      <form method="post" action={href("/sign-up")} className="authd-form" onSubmit={submission.onSubmit} noValidate>
        <ProblemMessage problem={submission.problem} id="authd-form-problem" />
        <HiddenFields />
        <Field
          name="name"
          label="field.name"
          autoComplete="name"
          defaultValue={state.values.name}
          problem={submission.problem}
          autoFocus
        />
        <Field
          name="email"
          label="field.email"
          type="email"
          autoComplete="email"
          defaultValue={state.values.email}
          problem={submission.problem}
        />
        {state.username ? (
          <Field
            name="username"
            label="field.username"
            autoComplete="username"
            defaultValue={state.values.username}
            required={false}
            problem={submission.problem}
          />
        ) : null}
        <NewPasswordField
          name="password"
          label="field.password"
          rules={state.passwordRules}
          problem={submission.problem}
        />
        <SubmitButton label="action.signUp" busy={submission.busy} />
      </form>
      <Links>
        <a href={href("/sign-in")}>{t("link.signIn")}</a>
      </Links>
    </Shell>
  );
}
