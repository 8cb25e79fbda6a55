import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { LOCALES } from "../../shared/messages/index.ts";
import { type ConsoleMailState, consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ConsoleShell } from "./shell.tsx";

// The mail screen (/console/mail): a mail and a language chosen in a GET form (so it works without
// JavaScript and a preview is a link to keep), then that mail with sample values: subject, language, which
// template it comes from, its link and code, the plain-text part, and the HTML part in a sandboxed frame.

/** One choice of the chooser: [value, words] per option. */
function Choice({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: AnyMessageKey;
  value: string;
  options: [string, string][];
}) {
  const { t } = useConsole();
  const id = useId();
  return (
    <div className="authd-console-filter">
      <label htmlFor={id} className="authd-label">
        {t(label)}
      </label>
      <select id={id} name={name} className="authd-input" defaultValue={value}>
        {options.map(([option, words]) => (
          <option key={option} value={option}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
}

function Chooser({ state }: { state: ConsoleMailState }) {
  const { t } = useConsole();
  return (
    <form method="get" action={consoleHref("/mail")} className="authd-console-filters">
      <Choice
        name="mail"
        label="console.mail.choose.mail"
        value={state.query.mail}
        options={state.mails.map((mail) => [mail, mail])}
      />
      <Choice
        name="lang"
        label="console.mail.choose.language"
        value={state.query.lang}
        options={LOCALES.map((locale) => [locale, t(`console.mail.language.${locale}` as AnyMessageKey)])}
      />
      <div className="authd-console-filter-actions">
        <button type="submit" className="authd-button">
          {t("console.mail.choose.show")}
        </button>
      </div>
    </form>
  );
}

function Facts({ state }: { state: ConsoleMailState }) {
  const { t } = useConsole();
  const { preview } = state;
  return (
    <dl className="authd-facts">
      <dt>{t("console.mail.subject")}</dt>
      <dd>{preview.subject}</dd>
      <dt>{t("console.mail.language")}</dt>
      <dd>{t(`console.mail.language.${preview.locale}` as AnyMessageKey)}</dd>
      <dt>{t("console.mail.source")}</dt>
      <dd>{preview.template ? <code>{preview.template}</code> : t("console.mail.source.own")}</dd>
      {preview.link ? (
        <>
          <dt>{t("console.mail.link")}</dt>
          <dd>
            <code className="authd-outbox-link">{preview.link}</code>
          </dd>
        </>
      ) : null}
      {preview.code ? (
        <>
          <dt>{t("console.mail.code")}</dt>
          <dd>
            <code className="authd-outbox-code">{preview.code}</code>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

export function ConsoleMailScreen({ state }: { state: ConsoleMailState }) {
  const { t } = useConsole();
  const { preview, query } = state;
  const command = `authd mail preview ${query.mail} --lang ${query.lang}`;
  return (
    <ConsoleShell screen="mail">
      <p className="authd-hint">
        {t("console.mail.explain", { command })}{" "}
        {state.templatesDir ? t("console.mail.templates", { dir: state.templatesDir }) : t("console.mail.noTemplates")}
      </p>
      <Chooser state={state} />
      <Facts state={state} />
      <section aria-labelledby="authd-mail-text" className="authd-outbox-text">
        <h2 id="authd-mail-text" className="authd-console-subtitle">
          {t("console.mail.textPart")}
        </h2>
        <pre>{preview.text}</pre>
      </section>
      <section aria-labelledby="authd-mail-html">
        <h2 id="authd-mail-html" className="authd-console-subtitle">
          {t("console.mail.htmlPart")}
        </h2>
        <iframe
          className="authd-outbox-html"
          src={preview.htmlPath}
          title={t("console.mail.htmlFrame", { subject: preview.subject })}
          sandbox=""
        />
      </section>
      <p className="authd-hint">
        {t("console.mail.sendTest", {
          command: `authd mail send-test <address> --mail ${query.mail} --lang ${query.lang}`,
        })}
      </p>
    </ConsoleShell>
  );
}
