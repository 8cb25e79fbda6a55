import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthClient } from "../../src/client/index.ts";
import { SERVER_TOKEN } from "../helpers/context.ts";
import { browserLikeFetch, eventually, type RunningAuthd, startAuthd, uniqueEmail } from "./helpers.ts";

describe("authd/client against a running authd", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd();
  });
  afterAll(async () => {
    await authd?.close();
  });

  function newClient() {
    const browser = browserLikeFetch();
    const client = createAuthClient({ baseURL: authd.url, fetchOptions: { customFetchImpl: browser.fetch } });
    return { client, browser };
  }

  it("signs up with email and password and returns the user with dates as Date objects", async () => {
    const { client, browser } = newClient();
    const email = uniqueEmail();
    const { data, error } = await client.signUp.email({ name: "Ada", email, password: "correct-horse-battery" });
    expect(error).toBeNull();
    expect(data?.user.email).toBe(email);
    expect(data?.user.createdAt).toBeInstanceOf(Date);
    expect(typeof data?.token).toBe("string");
    expect(browser.requests.at(-1)).toEqual({ method: "POST", url: `${authd.url}/api/auth/sign-up/email` });
  });

  it("signs in, then getSession returns the signed-in user", async () => {
    const email = uniqueEmail();
    await newClient().client.signUp.email({ name: "Grace", email, password: "correct-horse-battery" });
    const { client, browser } = newClient();
    const signedIn = await client.signIn.email({ email, password: "correct-horse-battery" });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data?.redirect).toBe(false);
    const session = await client.getSession();
    expect(session.data?.user.email).toBe(email);
    expect(session.data?.session.expiresAt).toBeInstanceOf(Date);
    expect(browser.requests.at(-1)).toEqual({ method: "GET", url: `${authd.url}/api/auth/get-session` });
  });

  it("works without a cookie jar by the set-auth-token bearer, and fetches a JWT with token()", async () => {
    const email = uniqueEmail();
    let bearer = "";
    const plain = createAuthClient({
      baseURL: authd.url,
      fetchOptions: {
        onSuccess: ({ response }) => {
          bearer = response.headers.get("set-auth-token") ?? bearer;
        },
      },
    });
    await plain.signUp.email({ name: "Bea", email, password: "correct-horse-battery" });
    expect(bearer).toContain(".");
    const client = createAuthClient({
      baseURL: authd.url,
      fetchOptions: { headers: { authorization: `Bearer ${bearer}` } },
    });
    expect((await client.getSession()).data?.user.email).toBe(email);
    const { data } = await client.token();
    expect(data?.token.split(".")).toHaveLength(3);
    const keys = await client.jwks();
    expect(keys.data?.keys[0]).toMatchObject({ kty: "OKP", alg: "EdDSA" });
  });

  it("revokes other sessions by the handles listSessions gives, finding the current one by id", async () => {
    const email = uniqueEmail();
    const here = newClient();
    await here.client.signUp.email({ name: "Ada", email, password: "correct-horse-battery" });
    const elsewhere = newClient();
    await elsewhere.client.signIn.email({ email, password: "correct-horse-battery" });
    const { data: current } = await here.client.getSession();
    const { data: sessions } = await here.client.listSessions();
    expect(sessions).toHaveLength(2);
    expect(sessions?.map((s) => s.token)).not.toContain(current?.session.token);
    for (const session of sessions ?? []) {
      if (session.id !== current?.session.id)
        expect((await here.client.revokeSession({ token: session.token })).data).toEqual({ status: true });
    }
    expect((await elsewhere.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    expect((await here.client.getSession({ query: { disableCookieCache: true } })).data?.user.email).toBe(email);
  });

  it("returns the server's code and message with the status when a call fails", async () => {
    const { client } = newClient();
    const { data, error } = await client.signIn.email({ email: uniqueEmail(), password: "wrong-password-123" });
    expect(data).toBeNull();
    expect(error).toMatchObject({
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
      status: 401,
    });
  });

  it("sends getSession({ headers }) as request headers, as a server forwarding the browser's cookie does", async () => {
    const email = uniqueEmail();
    const { client: browserClient, browser } = newClient();
    await browserClient.signUp.email({ name: "Forwarded", email, password: "correct-horse-battery" });
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const seen: string[] = [];
    const server = createAuthClient({
      baseURL: authd.url,
      fetchOptions: {
        headers: { "x-app": "shop" },
        customFetchImpl: ((input: RequestInfo | URL, init?: RequestInit) => {
          seen.push(String(input));
          return fetch(input, init);
        }) as typeof fetch,
      },
    });
    const session = await server.getSession({ headers: { cookie } });
    expect(session.data?.user.email).toBe(email);
    expect(seen.at(-1)).toBe(`${authd.url}/api/auth/get-session`);
    const withQuery = await server.getSession({
      query: { disableCookieCache: true },
      headers: new Headers({ cookie }),
    });
    expect(withQuery.data?.user.email).toBe(email);
    expect(seen.at(-1)).toBe(`${authd.url}/api/auth/get-session?disableCookieCache=true`);
    // Without the cookie the server's client is nobody: the headers were what signed it in.
    expect((await server.getSession()).data).toBeNull();
  });

  it("sends query parameters for GET routes and validation errors come back as errors", async () => {
    const { client, browser } = newClient();
    const result = await client.getSession({ query: { disableCookieCache: true } });
    expect(result).toEqual({ data: null, error: null });
    expect(browser.requests.at(-1)?.url).toBe(`${authd.url}/api/auth/get-session?disableCookieCache=true`);
    const invalid = await client.$fetch("/get-session", { query: { disableRefresh: "maybe" } });
    expect(invalid.error).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
  });

  it("refreshes the session store after sign-out", async () => {
    const { client } = newClient();
    await client.signUp.email({ name: "Store", email: uniqueEmail(), password: "correct-horse-battery" });
    const seen: Array<string | null> = [];
    const stop = client.useSession.subscribe((state) => {
      if (!state.isPending) seen.push(state.data?.user.name ?? null);
    });
    await eventually(() => client.useSession.get().data);
    const signedOut = await client.signOut();
    expect(signedOut.data).toEqual({ success: true });
    await eventually(() => client.useSession.get().data === null && !client.useSession.get().isRefetching);
    stop();
    expect(seen[0]).toBe("Store");
    expect(seen.at(-1)).toBeNull();
  });

  it("refreshes the session store after update-user", async () => {
    const { client } = newClient();
    await client.signUp.email({ name: "Before", email: uniqueEmail(), password: "correct-horse-battery" });
    const stop = client.$session.subscribe(() => {});
    await eventually(() => client.$session.get().data?.user.name === "Before");
    const updated = await client.updateUser({ name: "After" });
    expect(updated.data).toEqual({ status: true });
    await eventually(() => client.$session.get().data?.user.name === "After");
    stop();
  });

  it("refetches the session when told through $store.notify, as Better Auth apps do", async () => {
    const browser = browserLikeFetch();
    const client = createAuthClient({ baseURL: authd.url, fetchOptions: { customFetchImpl: browser.fetch } });
    const stop = client.useSession.subscribe(() => {});
    await eventually(() => !client.useSession.get().isPending);
    expect(client.useSession.get().data).toBeNull();
    // Another client on the same cookie jar (another tab) signs in; this one hears of it only when told.
    const otherTab = createAuthClient({ baseURL: authd.url, fetchOptions: { customFetchImpl: browser.fetch } });
    await otherTab.signUp.email({ name: "Tab", email: uniqueEmail("tab"), password: "correct-horse-battery" });
    client.$store.notify("$sessionSignal");
    await eventually(() => client.useSession.get().data?.user.name === "Tab");
    stop();
  });

  it("retries a failed fetch and succeeds when the network comes back", async () => {
    const browser = browserLikeFetch();
    let failuresLeft = 2;
    const flaky: typeof fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (failuresLeft-- > 0) throw new TypeError("fetch failed");
      return browser.fetch(input, init);
    }) as typeof fetch;
    const retries: number[] = [];
    const client = createAuthClient({
      baseURL: authd.url,
      fetchOptions: {
        customFetchImpl: flaky,
        retry: { type: "linear", attempts: 3, delay: 5 },
        onRetry: (c) => void retries.push(c.request.retryAttempt),
      },
    });
    const { data, error } = await client.$fetch<{ ok: boolean }>("/ok");
    expect(error).toBeNull();
    expect(data).toEqual({ ok: true });
    expect(retries).toEqual([0, 1]);
  });

  it("does not retry an answer that would come back the same (4xx)", async () => {
    const { browser } = newClient();
    const client = createAuthClient({
      baseURL: authd.url,
      fetchOptions: { customFetchImpl: browser.fetch, retry: { type: "linear", attempts: 3, delay: 5 } },
    });
    const { error } = await client.signIn.email({ email: uniqueEmail(), password: "wrong-password-123" });
    expect(error?.status).toBe(401);
    expect(browser.requests.filter((r) => r.url.endsWith("/sign-in/email"))).toHaveLength(1);
  });

  it("reports an unreachable server as a NETWORK_ERROR with status 0 after the retries", async () => {
    let calls = 0;
    const client = createAuthClient({
      baseURL: "http://127.0.0.1:9",
      fetchOptions: {
        retry: { type: "exponential", attempts: 2, baseDelay: 1, maxDelay: 4 },
        onRequest: () => void calls++,
      },
    });
    const { data, error } = await client.getSession();
    expect(data).toBeNull();
    expect(error).toMatchObject({ code: "NETWORK_ERROR", status: 0 });
    expect(calls).toBe(3);
  });
});

describe("authd/client API-key calls", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd();
  });
  afterAll(async () => {
    await authd?.close();
  });

  it("creates, lists and reads a key, and the key alone authenticates as its owner", async () => {
    const browser = browserLikeFetch();
    const client = createAuthClient({ baseURL: authd.url, fetchOptions: { customFetchImpl: browser.fetch } });
    const email = uniqueEmail("keys");
    await client.signUp.email({ name: "Key Owner", email, password: "correct-horse-battery" });

    const created = await client.apiKey.create({ name: "ci", prefix: "ci_" });
    expect(created.error).toBeNull();
    expect(created.data?.key.startsWith("ci_")).toBe(true);
    expect(created.data?.createdAt).toBeInstanceOf(Date);

    const listed = await client.apiKey.list();
    expect(listed.data?.map((key) => key.id)).toEqual([created.data?.id]);
    expect(browser.requests.at(-1)).toEqual({ method: "GET", url: `${authd.url}/api/auth/api-key/list` });
    const fetched = await client.apiKey.get({ query: { id: created.data!.id } });
    expect(fetched.data).toMatchObject({ id: created.data?.id, name: "ci" });
    expect(fetched.data).not.toHaveProperty("key");

    // A back end without cookies, sending only the key.
    const backEnd = createAuthClient({
      baseURL: authd.url,
      fetchOptions: { headers: { "x-api-key": created.data!.key } },
    });
    const session = await backEnd.getSession();
    expect(session.data?.user.email).toBe(email);
  });

  it("verifies a key as the server, and a foreign key cannot be read", async () => {
    const owner = createAuthClient({ baseURL: authd.url, fetchOptions: { customFetchImpl: browserLikeFetch().fetch } });
    await owner.signUp.email({ name: "Owner", email: uniqueEmail("owner"), password: "correct-horse-battery" });
    const { data: key } = await owner.apiKey.create({ name: "mine" });

    const server = createAuthClient({
      baseURL: authd.url,
      fetchOptions: { headers: { authorization: `Bearer ${SERVER_TOKEN}` } },
    });
    const verified = await server.apiKey.verify({ key: key!.key });
    expect(verified.data).toMatchObject({ valid: true, error: null, key: { id: key!.id } });

    const stranger = createAuthClient({
      baseURL: authd.url,
      fetchOptions: { customFetchImpl: browserLikeFetch().fetch },
    });
    await stranger.signUp.email({
      name: "Stranger",
      email: uniqueEmail("stranger"),
      password: "correct-horse-battery",
    });
    const foreign = await stranger.apiKey.get({ query: { id: key!.id } });
    expect(foreign.data).toBeNull();
    expect(foreign.error).toMatchObject({ code: "KEY_NOT_FOUND", status: 404 });
  });
});
