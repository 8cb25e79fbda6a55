import { startServer } from "../../src/server.ts";
import { createTestContext, TEST_ORIGIN, type TestContext, type TestContextOptions } from "../helpers/context.ts";

// A real authd on an ephemeral port, and a browser-like fetch for the client tests in Node (which has no
// cookie jar of its own and sends no Origin header).

export interface RunningAuthd {
  t: TestContext;
  /** http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}

export async function startAuthd(options: TestContextOptions = {}): Promise<RunningAuthd> {
  const t = await createTestContext({ realTime: true, ...options });
  const running = startServer(t.ctx, { port: 0, host: "127.0.0.1" });
  return {
    t,
    url: `http://127.0.0.1:${running.server.port}`,
    async close() {
      // shutdown() closes the context too; close() then only removes the temporary database.
      await running.shutdown();
      await t.close().catch(() => {});
    },
  };
}

export interface BrowserLikeFetch {
  fetch: typeof fetch;
  cookies: Map<string, string>;
  /** Every request made, for assertions about method and URL. */
  requests: Array<{ method: string; url: string }>;
}

/** Keeps cookies like a browser and sends the page's Origin, as a page at `origin` would. */
export function browserLikeFetch(origin = TEST_ORIGIN): BrowserLikeFetch {
  const cookies = new Map<string, string>();
  const requests: BrowserLikeFetch["requests"] = [];
  const jarFetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    headers.set("origin", origin);
    const url = input instanceof Request ? input.url : String(input);
    requests.push({ method: init.method ?? "GET", url });
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const value = pair.slice(pair.indexOf("=") + 1).trim();
      if (value === "" || attributes.some((attribute) => /^\s*max-age=0/i.test(attribute))) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  return { fetch: jarFetch as typeof fetch, cookies, requests };
}

/** Polls until the check passes (or fails after `timeoutMs`); for values that change on timers. */
export async function eventually<T>(check: () => T | undefined | null | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function uniqueEmail(label = "client"): string {
  return `${label}.${Math.random().toString(36).slice(2, 10)}@example.com`;
}
