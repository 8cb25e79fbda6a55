import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveApiURL } from "../../src/client/base-url.ts";
import type { ClientFetch } from "../../src/client/fetch.ts";
import { createAuthClient } from "../../src/client/index.ts";
import { toRoutePath } from "../../src/client/proxy.ts";
import { retryDelay } from "../../src/client/retry.ts";
import { methodFor } from "../../src/client/routes.ts";
import { createSessionStore } from "../../src/client/session.ts";

// The client's timing rules (§9) on the test clock: these need no server, only a counting fetch.

function countingFetch() {
  const calls: string[] = [];
  const clientFetch = (async (path: string) => {
    calls.push(path);
    return { data: null, error: null };
  }) as ClientFetch;
  return { calls, clientFetch };
}

describe("session store timing", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fetches the session when the first listener arrives, not before", async () => {
    const { calls, clientFetch } = countingFetch();
    const store = createSessionStore(clientFetch);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toEqual([]);
    const stop = store.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(["/get-session"]);
    expect(store.get().isPending).toBe(false);
    stop();
  });

  it("refetches 10 ms after a session signal while someone listens", async () => {
    const { calls, clientFetch } = countingFetch();
    const store = createSessionStore(clientFetch);
    const stop = store.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1);
    store.notify();
    await vi.advanceTimersByTimeAsync(9);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    stop();
  });

  it("keeps listening for 1 s after the last listener leaves, then stops", async () => {
    const { calls, clientFetch } = countingFetch();
    const store = createSessionStore(clientFetch);
    const stop = store.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1);
    stop();
    await vi.advanceTimersByTimeAsync(900);
    store.notify();
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(100);
    store.notify();
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(2);
  });

  it("a listener returning within the second keeps the store running without a new fetch", async () => {
    const { calls, clientFetch } = countingFetch();
    const store = createSessionStore(clientFetch);
    store.subscribe(() => {})();
    await vi.advanceTimersByTimeAsync(500);
    const stop = store.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(1);
    stop();
  });
});

describe("call paths and methods", () => {
  it("turns camelCase segments into kebab-case paths", () => {
    expect(toRoutePath(["signIn", "email"])).toBe("/sign-in/email");
    expect(toRoutePath(["organization", "acceptInvitation"])).toBe("/organization/accept-invitation");
    expect(toRoutePath(["apiKey", "deleteAllExpiredApiKeys"])).toBe("/api-key/delete-all-expired-api-keys");
  });

  it("takes the method from the table, else POST with a body and GET without", () => {
    expect(methodFor("/sign-out", {})).toBe("POST");
    expect(methodFor("/organization/list", { anything: 1 })).toBe("GET");
    expect(methodFor("/custom/thing", { a: 1 })).toBe("POST");
    expect(methodFor("/custom/thing", {})).toBe("GET");
    expect(methodFor("/custom/thing", {}, "POST")).toBe("POST");
  });

  it("is not a thenable, so awaiting the client does not make a request", async () => {
    const { calls, clientFetch } = countingFetch();
    const client = createAuthClient({
      baseURL: "http://127.0.0.1:9",
      fetchOptions: { customFetchImpl: clientFetch as unknown as typeof fetch },
    });
    const awaited = await Promise.resolve(client);
    expect(awaited).toBe(client);
    expect(calls).toEqual([]);
  });

  it("waits 1000 ms between linear retries by default and doubles up to the cap when exponential", () => {
    expect(retryDelay(3, 0)).toBe(1000);
    expect(retryDelay({ type: "linear", attempts: 3 }, 2)).toBe(1000);
    const exponential = { type: "exponential", attempts: 5, baseDelay: 100, maxDelay: 500 } as const;
    expect([0, 1, 2, 3].map((attempt) => retryDelay(exponential, attempt))).toEqual([100, 200, 400, 500]);
  });
});

describe("base URL", () => {
  it("appends the base path to an origin and keeps a URL that already has a path", () => {
    expect(resolveApiURL("https://auth.example.com", undefined)).toBe("https://auth.example.com/api/auth");
    expect(resolveApiURL("https://auth.example.com/", "auth/")).toBe("https://auth.example.com/auth");
    expect(resolveApiURL("https://example.com/identity/api", "/ignored")).toBe("https://example.com/identity/api");
    expect(() => resolveApiURL("not a url", undefined)).toThrow(/invalid baseURL/);
  });
});
