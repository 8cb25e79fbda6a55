/** Text for an HTML page: every character that could open markup or end an attribute is escaped. */
export function escapeHTML(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string,
  );
}

/** Pages authd draws carry no script at all, and their policy forbids any. */
export const STATIC_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

export const PAGE_STYLE = `body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; background: #f6f7f9; color: #1d2330; }
  main { max-width: 32rem; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  code { background: #eef1f5; padding: .15rem .4rem; border-radius: 4px; word-break: break-all; }
  a { color: #2452c2; }`;
