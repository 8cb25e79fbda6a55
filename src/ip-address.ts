import { BlockList, isIP } from "node:net";

// IP addresses as authd compares them: one textual form per address (IPv4-mapped IPv6 is the IPv4
// address it carries), CIDR ranges for trusted proxies, and the bucket an address is rate-limited in.

/** The 8 hextets of a valid IPv6 address (embedded IPv4 tail included), or null. */
export function ipv6Hextets(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const v4Tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number);
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((h) => Number.parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  return tail === undefined ? left : [...left, ...new Array<number>(missing).fill(0), ...right];
}

/**
 * One form per address, or null when `raw` is not an address. Accepts what proxies write into forwarding
 * headers besides the bare address: `[v6]`, `[v6]:port`, `v4:port`, a zone id (`fe80::1%eth0`), and
 * turns IPv4-mapped IPv6 (`::ffff:203.0.113.7`, the form a dual-stack listener reports) into IPv4.
 */
export function canonicalAddress(raw: string): string | null {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%.*$/, "").toLowerCase();
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return null;
  const hextets = ipv6Hextets(text);
  // ::ffff:a.b.c.d in any spelling (::ffff:7f00:1, 0:0:0:0:0:ffff:127.0.0.1) is the IPv4 address a.b.c.d.
  if (hextets?.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    return [hextets[6] >> 8, hextets[6] & 255, hextets[7] >> 8, hextets[7] & 255].join(".");
  }
  return text;
}

/**
 * The key an address is counted under. IPv4: the address. IPv6: its network of `prefixLength` bits
 * (`2001:db8:1:2::/64`), because one subscriber usually holds a whole /64 and could otherwise take a
 * fresh counter for every request.
 */
export function rateLimitBucket(address: string, prefixLength: number): string {
  const canonical = canonicalAddress(address) ?? address;
  const hextets = ipv6Hextets(canonical);
  if (!hextets) return canonical;
  const kept: string[] = [];
  for (let i = 0; i * 16 < prefixLength; i += 1) {
    const bits = Math.min(16, prefixLength - i * 16);
    kept.push((hextets[i] & (0xffff << (16 - bits)) & 0xffff).toString(16));
  }
  return `${kept.join(":")}${kept.length < 8 ? "::" : ""}/${prefixLength}`;
}

function parseRange(entry: string): { network: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  const [address, prefixText, ...rest] = entry.trim().split("/");
  const family = isIP(address);
  if (rest.length > 0 || family === 0) return null;
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { network: address, prefix, family: family === 4 ? "ipv4" : "ipv6" };
}

/** Whether a trusted-proxy entry is an IPv4/IPv6 address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(entry: string): boolean {
  return parseRange(entry) !== null;
}

/** A test for membership in a list of addresses and CIDR ranges (entries must pass isAddressOrRange). */
export function createAddressMatcher(entries: string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const range = parseRange(entry);
    if (range) list.addSubnet(range.network, range.prefix, range.family);
  }
  return (address) => {
    const canonical = canonicalAddress(address);
    if (!canonical) return false;
    return list.check(canonical, isIP(canonical) === 4 ? "ipv4" : "ipv6");
  };
}
