// Redirect URIs of the OpenID Provider's clients: what may be registered, and how a presented one is matched.
// Matching is exact string comparison (RFC 9700 §4.1.1): no wildcards, no prefixes, no normalising of what
// the client sends. The one exception is RFC 8252 §7.3: a native (public) client registered with an http
// loopback IP literal may be answered on any port, since the operating system picks it at run time.

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]"]);
/** A private-use scheme of a native app: reverse domain name (RFC 8252 §7.1), never a browser-run one. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** Why `raw` cannot be registered as a redirect URI, or null when it can (`publicClient`: native apps' forms too). */
export function redirectURIProblem(raw: string, publicClient: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not an absolute URL`;
  }
  if (url.hash || raw.includes("#")) return `${raw} has a fragment; a redirect URI must not (RFC 6749 §3.1.2)`;
  if (url.username || url.password) return `${raw} carries user information; a redirect URI must not`;
  const web = url.protocol === "https:" || url.protocol === "http:";
  if (!web && !(publicClient && PRIVATE_USE_SCHEME.test(url.protocol)))
    return `${raw}: use an https URL (or, for a public native client, http://127.0.0.1 or a reverse-domain scheme such as com.example.app:/callback)`;
  if (web && url.href !== raw) return `${raw} is not in its normal form; register it as ${url.href}`;
  return null;
}

function isLoopback(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/** Whether `presented` is one of `registered`, exactly (or, for a public client, a loopback one on another port). */
export function matchesRedirectURI(presented: string, registered: readonly string[], publicClient: boolean): boolean {
  if (registered.includes(presented)) return true;
  if (!publicClient) return false;
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return false;
  }
  if (!isLoopback(url) || url.href !== presented) return false;
  return registered.some((candidate) => {
    const known = new URL(candidate);
    return (
      isLoopback(known) &&
      known.hostname === url.hostname &&
      known.pathname === url.pathname &&
      known.search === url.search
    );
  });
}
