import { usePage } from "../components/page-context.tsx";
import { Notice, Shell } from "../components/shell.tsx";
import type { OutboxEntry, StateOf } from "../state.ts";

// The development outbox (docs/mail.md): without SMTP, the mails this daemon would have sent, newest first,
// each with its link and code picked out (the link opens as the mail's button would), its plain text, and its
// HTML part drawn as a mail client would, in a sandboxed frame of its own (the mail's inline styles need a
// policy the pages do not allow themselves).

function OutboxMail({ mail }: { mail: OutboxEntry }) {
  const { t } = usePage();
  const headingId = `authd-outbox-${mail.id}`;
  return (
    <article className="authd-outbox-mail" aria-labelledby={headingId}>
      <h2 id={headingId} className="authd-outbox-subject">
        {mail.subject}
      </h2>
      <dl className="authd-facts">
        <dt>{t("outbox.to")}</dt>
        <dd>{mail.to}</dd>
        <dt>{t("outbox.sentAt")}</dt>
        <dd>
          <time dateTime={mail.sentAt}>{mail.sentAt.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time>
        </dd>
        <dt>{t("outbox.language")}</dt>
        <dd lang="en">{mail.locale}</dd>
        {mail.link ? (
          <>
            <dt>{t("outbox.link")}</dt>
            <dd>
              <a className="authd-outbox-link" href={mail.link}>
                {mail.link}
              </a>
            </dd>
          </>
        ) : null}
        {mail.code ? (
          <>
            <dt>{t("outbox.code")}</dt>
            <dd>
              <code className="authd-outbox-code">{mail.code}</code>
            </dd>
          </>
        ) : null}
      </dl>
      <details className="authd-outbox-text">
        <summary>{t("outbox.textPart")}</summary>
        <pre>{mail.text}</pre>
      </details>
      <iframe
        className="authd-outbox-html"
        src={mail.htmlPath}
        title={t("outbox.htmlPart", { subject: mail.subject })}
        sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
        loading="lazy"
      />
    </article>
  );
}

export function DevOutboxPage({ state }: { state: StateOf<"dev-outbox"> }) {
  const { t } = usePage();
  return (
    <Shell title="page.title.devOutbox">
      <p className="authd-text">{t("outbox.explain")}</p>
      {state.mails.length === 0 ? <Notice>{t("outbox.empty")}</Notice> : null}
      {state.mails.map((mail) => (
        <OutboxMail key={mail.id} mail={mail} />
      ))}
    </Shell>
  );
}
