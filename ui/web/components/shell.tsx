import { type MessageKey, usePage } from "./page-context.tsx";

// The frame of every page: the logo or app name, the page's heading, and its content in one card.
// Class names prefixed `authd-` are the stable hooks operators theme (docs/pages.md).

export function Shell({
  title,
  subtitle,
  children,
}: {
  title: MessageKey;
  subtitle?: string;
  children: React.ReactNode;
}) {
  const { t, state } = usePage();
  const { appName, logoURL } = state.branding;
  return (
    <main className="authd-card" aria-labelledby="authd-title">
      <header className="authd-brand">
        {logoURL ? (
          <img className="authd-logo" src={logoURL} alt={appName} />
        ) : (
          <p className="authd-app-name">{appName}</p>
        )}
      </header>
      <h1 id="authd-title" className="authd-title">
        {t(title)}
      </h1>
      {subtitle ? <p className="authd-subtitle">{subtitle}</p> : null}
      {children}
    </main>
  );
}

export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <p className="authd-notice" role="status">
      {children}
    </p>
  );
}

export function SubmitButton({ label, busy }: { label: MessageKey; busy?: boolean }) {
  const { t } = usePage();
  return (
    <button type="submit" className="authd-button" aria-disabled={busy || undefined}>
      {t(label)}
    </button>
  );
}

export function Links({ children }: { children: React.ReactNode }) {
  return <nav className="authd-links">{children}</nav>;
}
