import { TEST_ORIGIN } from "../helpers/context.ts";

export { type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// A browser-like fetch for the client tests in Node (which has no cookie jar of its own and sends no
// Origin header).

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
