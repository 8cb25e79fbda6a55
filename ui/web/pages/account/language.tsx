import { useId } from "react";
import { errorMessageKey, LOCALES, translator } from "../../../shared/messages/index.ts";
import { HiddenFields } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { SubmitButton } from "../../components/shell.tsx";
import type { FormProblem } from "../../state.ts";

// The language of authd's pages and mails for this user (the profile's last part): the browser's, or one
// the catalogue ships, each named in its own words. A plain form, with JavaScript too: the choice changes
// every word of the page, so the page is loaded again in it.

export function LanguagePart({ chosen, problem }: { chosen: string | null; problem: FormProblem | null }) {
  const { t, state } = usePage();
  const id = useId();
  const mine = problem?.field === "language" ? problem : null;
  const described = [`${id}-hint`, mine ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <>
      <h2 className="authd-section-title">{t("account.language.heading")}</h2>
      <form method="post" action={`${state.paths.pages}/language`} className="authd-form">
        <HiddenFields />
        <div className="authd-field">
          <label htmlFor={id} className="authd-label">
            {t("field.language")}
          </label>
          <select
            id={id}
            name="language"
            className="authd-input"
            defaultValue={chosen ?? ""}
            aria-invalid={mine ? true : undefined}
            aria-describedby={described}
          >
            <option value="">{t("language.browserDefault")}</option>
            {LOCALES.map((locale) => (
              <option key={locale} value={locale} lang={locale}>
                {translator(locale)("language.name")}
              </option>
            ))}
          </select>
          <p id={`${id}-hint`} className="authd-hint">
            {t("hint.language")}
          </p>
          {mine ? (
            <p id={`${id}-error`} className="authd-field-error">
              {t(errorMessageKey(mine.code))}
            </p>
          ) : null}
        </div>
        <SubmitButton label="action.saveLanguage" busy={false} />
      </form>
    </>
  );
}
