import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { AuthContext } from "../../context.ts";
import { canonicalAddress, createAddressMatcher } from "../../ip-address.ts";

// Where a webhook may go. A webhook URL is an operator's, but the daemon usually sits inside a network an
// outsider cannot reach: a URL naming (or resolving to) a private, loopback, link-local or otherwise
// special address would let whoever controls the URL or its DNS make the daemon call inside that network.
// So such destinations are refused unless the operator lists them in webhooks.allowedPrivateDestinations,
// and redirects are never followed (a public host could redirect to a private one).
//
// The name is resolved here and again by fetch: DNS that changes its answer in between (rebinding) is not
// caught; docs/security.md says so.

const SPECIAL_RANGES = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "64:ff9b::/96",
  "100::/64",
  "2001:db8::/32",
  "fc00::/7",
  "fe80::/10",
  "ff00::/8",
];

const isSpecialAddress = createAddressMatcher(SPECIAL_RANGES);

/** Null when the URL may receive webhooks, else why not (one line for the operator). */
export async function refuseDestination(ctx: AuthContext, url: string): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "only http and https URLs";
  if (parsed.username || parsed.password) return "credentials in the URL are not allowed";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      return `cannot resolve ${host}`;
    }
  }
  const allowed = createAddressMatcher(ctx.config.webhooks.allowedPrivateDestinations);
  for (const address of addresses) {
    const canonical = canonicalAddress(address) ?? address;
    if (isSpecialAddress(canonical) && !allowed(canonical))
      return `${host} is a private or special address (${canonical}); list it in webhooks.allowedPrivateDestinations to allow it`;
  }
  return null;
}
