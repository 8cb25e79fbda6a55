import { HiddenFields } from "../components/form.tsx";
import type { MessageKey } from "../components/page-context.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import type { SignInMethods } from "../state.ts";

// The sign-in page's other ways in. The mailed ones are buttons of the sign-in form itself (identifier
// first: the address typed once is sent wherever the pressed button's formaction points); the social
// providers are one small form of their own, each button naming its provider. All post plainly, with or
// without JavaScript: the server answers 303 to the next page or to the provider.

function MethodButton({ label, action }: { label: MessageKey; action: string }) {
  const { t } = usePage();
  return (
    <button type="submit" className="authd-button authd-button-secondary" formAction={action} formNoValidate>
      {t(label)}
    </button>
  );
}

/** "Email me a sign-in link" and "Email me a code", inside the sign-in form. */
export function MailedMethods({ methods }: { methods: SignInMethods }) {
  const href = usePageHref();
  if (!methods.magicLink && !methods.emailCode) return null;
  return (
    <div className="authd-methods">
      {methods.magicLink ? <MethodButton label="action.emailSignInLink" action={href("/magic-link")} /> : null}
      {methods.emailCode ? <MethodButton label="action.emailSignInCode" action={href("/email-code/send")} /> : null}
    </div>
  );
}

/** One button per configured provider; the post answers 303 to the provider's authorization URL. */
export function SocialMethods({ methods }: { methods: SignInMethods }) {
  const { t } = usePage();
  const href = usePageHref();
  if (methods.social.length === 0) return null;
  return (
    <>
      <p className="authd-divider">{t("notice.orContinueWith")}</p>
      <form method="post" action={href("/social")} className="authd-form authd-methods">
        <HiddenFields />
        {methods.social.map((provider) => (
          <button
            key={provider.id}
            type="submit"
            name="provider"
            value={provider.id}
            className="authd-button authd-button-secondary"
          >
            {t("action.continueWith", { provider: provider.name })}
          </button>
        ))}
      </form>
    </>
  );
}

/** A press of one of MailedMethods' buttons: the browser posts it to its formaction, not the password route. */
export function isOtherMethod(event: React.FormEvent<HTMLFormElement>): boolean {
  const submitter = (event.nativeEvent as SubmitEvent).submitter;
  return Boolean(submitter?.hasAttribute("formaction"));
}
