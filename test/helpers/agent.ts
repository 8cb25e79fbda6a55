import type { Hono } from "hono";

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

export class Agent {
  readonly jar = new Map<string, string>();
  headers: Record<string, string> = {};

  constructor(
    private readonly app: Hono,
    readonly basePath = "/api/auth",
    readonly origin = "http://localhost:3000",
    readonly env?: unknown,
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  cookie(suffix: string): string | undefined {
    for (const [k, v] of this.jar) if (k.endsWith(suffix)) return v;
    return undefined;
  }

  absorb(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const cleared = value === "" || attrs.some((a) => /^\s*max-age=(0|-)/i.test(a));
      if (cleared) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async request<T = any>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<AgentResponse<T>> {
    const url = new URL(`http://localhost${path.startsWith("/api/") || path.startsWith("/metrics") ? path : this.basePath + path}`);
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
