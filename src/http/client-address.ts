import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { canonicalAddress, rateLimitBucket } from "../ip-address.ts";
import { perContext } from "../platform/per-context.ts";

// Who is calling. The socket peer is the client, unless the peer is a reverse proxy the operator trusts
// (trustedProxies): then the proxy's forwarding header names the client. A forwarding header from anyone
// else is ignored, because a client talking straight to authd would otherwise choose its own address,
// and with it a fresh rate-limit counter and a made-up address on its sessions, on every request.

/** What src/server.ts hands the app with each request (app.request() in tests may hand nothing). */
export interface ServerEnv {
  /** The socket peer's address as Bun reports it, or null. */
  remoteAddress: string | null;
}

/** The socket peer's address, or null without a socket. */
export function socketAddress(c: Context): string | null {
  const address = (c.env as Partial<ServerEnv> | undefined)?.remoteAddress;
  return address ? canonicalAddress(address) : null;
}

/** The first configured forwarding header the request carries (several lines of it arrive joined by commas). */
function forwardingHeader(c: Context, ctx: AuthContext): { name: string; value: string } | null {
  for (const name of ctx.config.trustedProxyHeaders) {
    const value = c.req.header(name);
    if (value) return { name, value };
  }
  return null;
}

/** The hops of a forwarding header, left (farthest) to right (nearest): X-Forwarded-For lists or RFC 7239 `for=`. */
function forwardedHops(value: string): string[] {
  return value.split(",").map((element) => {
    const parameter = /(?:^|;)\s*for=("?)([^";]*)\1/i.exec(element);
    return parameter ? parameter[2] : element;
  });
}

/** Whether this context has warned of a forwarding header from an untrusted peer (it would repeat on every request). */
const warned = perContext(() => ({ untrustedProxy: false }));

function warnUntrustedOnce(ctx: AuthContext, peer: string | null, header: string): void {
  const once = warned(ctx);
  if (once.untrustedProxy) return;
  once.untrustedProxy = true;
  ctx.logger.warn(
    `ignored ${header} from ${peer ?? "a caller without a socket address"}, which is not a trusted proxy: the socket address is the client address. If authd runs behind a reverse proxy, add the proxy's address to AUTH_TRUSTED_PROXIES`,
    { peer, header, setting: "AUTH_TRUSTED_PROXIES" },
  );
}

/**
 * The client's address, or null when the request came without a socket (app.request in tests). Behind
 * trusted proxies the forwarding header is read from the right: each trusted proxy appended the address
 * it was called from, so the right-most address that is not a trusted proxy is the client, and anything
 * left of it was written by the client and proves nothing.
 */
export function clientAddress(c: Context, ctx: AuthContext): string | null {
  const peer = socketAddress(c);
  const header = forwardingHeader(c, ctx);
  if (!header) return peer;
  if (peer === null || !ctx.isTrustedProxy(peer)) {
    warnUntrustedOnce(ctx, peer, header.name);
    return peer;
  }
  let nearest = peer;
  const hops = forwardedHops(header.value);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const address = canonicalAddress(hops[i]);
    // A trusted proxy wrote something that is no address ("unknown"): keep the last hop known to be
    // real rather than read further left, where the client writes.
    if (!address) return nearest;
    if (!ctx.isTrustedProxy(address)) return address;
    nearest = address;
  }
  // Every hop is a trusted proxy (the client is inside a trusted range): the left-most one called first.
  return nearest;
}

/** The rate-limit counter a request is counted under: its client address, IPv6 grouped by network. */
export function rateLimitClientKey(c: Context, ctx: AuthContext): string {
  const address = clientAddress(c, ctx);
  return address ? rateLimitBucket(address, ctx.config.rateLimit.ipv6Subnet) : "unknown";
}

/** Whether the socket peer is one of the trusted reverse proxies (AUTH_TRUSTED_PROXIES). */
export function isFromTrustedProxy(c: Context, ctx: AuthContext): boolean {
  const peer = socketAddress(c);
  return peer !== null && ctx.isTrustedProxy(peer);
}

/**
 * The URL the client asked the proxy for, from X-Forwarded-Proto, -Host and -Uri (as Traefik and Caddy
 * send them, and as docs/proxies.md has nginx send them), or null. Only a trusted proxy's headers count:
 * anyone else would choose where a browser is sent back to after signing in.
 */
export function forwardedRequestURL(c: Context, ctx: AuthContext): string | null {
  if (!isFromTrustedProxy(c, ctx)) return null;
  const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const host = c.req.header("x-forwarded-host")?.split(",")[0]?.trim();
  // Browsers read "\" as "/" in http(s) URLs: "/\evil.example" is "//evil.example", a protocol-relative URL
  // once an app takes the path of the return address. Normalise first, so the checks see what a browser would.
  const uri = (c.req.header("x-forwarded-uri") ?? "/").replaceAll("\\", "/");
  if (proto !== "http" && proto !== "https") return null;
  if (!host || !FORWARDED_HOST.test(host) || !uri.startsWith("/") || uri.startsWith("//")) return null;
  try {
    const url = new URL(`${proto}://${host}${uri}`);
    // The parser drops tabs and newlines, so "/<TAB>/evil.example" also comes out as "//evil.example"; an
    // encoded slash or backslash first is the same trick one decoding later.
    return OFF_SITE_PATH.test(url.pathname) ? null : url.href;
  } catch {
    return null;
  }
}

// A path that another site could be read from: "//host", or an encoded "/" or "\" where the host would start.
const OFF_SITE_PATH = /^\/(?:\/|%2f|%5c)/i;

// A host name or bracketed IPv6 address, and an optional port: nothing that could end the authority early.
const FORWARDED_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;
