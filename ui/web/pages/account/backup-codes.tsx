import { useState } from "react";
import { useHydrated } from "../../components/hydrated.ts";
import { usePage } from "../../components/page-context.tsx";

// Backup codes as the account page shows them, once: a list, a download (a data: link drawn with the page,
// so it works without JavaScript; the pages' CSP does not govern a download) and, with JavaScript, a copy
// to the clipboard.

export function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = usePage();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<boolean | null>(null);
  const text = `${codes.join("\n")}\n`;
  const copy = () => {
    navigator.clipboard
      .writeText(text)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  };
  return (
    <div className="authd-backup-codes">
      <ul className="authd-codes" aria-label={t("account.secondFactor.codesLabel")}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="authd-actions">
        <a
          className="authd-button authd-button-secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="backup-codes.txt"
        >
          {t("account.secondFactor.download")}
        </a>
        {hydrated ? (
          <button type="button" className="authd-button authd-button-secondary" onClick={copy}>
            {t("account.secondFactor.copy")}
          </button>
        ) : null}
      </div>
      <p className="authd-hint" role="status">
        {copied === null ? "" : t(copied ? "account.secondFactor.copied" : "account.secondFactor.copyFailed")}
      </p>
    </div>
  );
}
