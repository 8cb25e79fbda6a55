import type { Hono } from "hono";
import type { ServerEnv } from "../../src/http/client-address.ts";

// A browser-like caller for app.request(): keeps cookies, sends a trusted Origin on POSTs.

export interface AgentResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  setCookies: string[];
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** Raw body (string) instead of JSON. */
  raw?: string;
}

/** Apply Set-Cookie lines to a cookie jar as a browser would (an empty or expired cookie is removed). */
export function absorbSetCookies(jar: Map<string, string>, setCookies: string[]): void {
  for (const line of setCookies) {
    const [pair, ...attrs] = line.split(";");
    const i = pair.indexOf("=");
    const name = pair.slice(0, i).trim();
    const value = pair.slice(i + 1).trim();
    const cleared = value === "" || attrs.some((a) => /^\s*max-age=(0|-)/i.test(a));
    if (cleared) jar.delete(name);
    else jar.set(name, value);
  }
}

/**
 * The environment src/server.ts hands the app, for app.request(), which has no socket: the peer address
 * the daemon would see. Tests that need a real socket use test/helpers/live-server.ts instead.
 */
export function socketEnv(address: string): ServerEnv {
  return { remoteAddress: address };
}

export class Agent {
  readonly jar = new Map<string, string>();
  headers: Record<string, string> = {};

  constructor(
    private readonly app: Hono,
    readonly basePath = "/api/auth",
    readonly origin = "http://localhost:3000",
    public env?: unknown,
  ) {}

  /** Send later requests as if from a socket at this address (the daemon's view of the peer). */
  connectFrom(address: string): this {
    this.env = socketEnv(address);
    return this;
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  cookie(suffix: string): string | undefined {
    for (const [k, v] of this.jar) if (k.endsWith(suffix)) return v;
    return undefined;
  }

  absorb(setCookies: string[]): void {
    absorbSetCookies(this.jar, setCookies);
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<AgentResponse<T>> {
    const url = new URL(
      `http://localhost${/^\/(api|metrics|account|console)(\/|$|\?)/.test(path) ? path : this.basePath + path}`,
    );
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    if (this.jar.size > 0 && headers.cookie === undefined) headers.cookie = this.cookieHeader();
    if (method !== "GET" && headers.origin === undefined) headers.origin = this.origin;
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers["content-type"] ??= "application/json";
    const res = await this.app.request(url.toString(), { method, headers, body: payload }, this.env as never);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    const setCookies = res.headers.getSetCookie();
    this.absorb(setCookies);
    return { status: res.status, headers: res.headers, body: parsed as T, text, setCookies };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>("GET", path, undefined, options);
  }

  post<T = any>(path: string, body: unknown = {}, options?: RequestOptions) {
    return this.request<T>("POST", path, body, options);
  }
}
