import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

// A real OpenID Connect provider (the `oidc-provider` package) on loopback, with its development
// login and consent pages. Any login name is accepted; `accounts` decides the claims it releases.

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** Every request the provider received, in order ("POST /token", "GET /auth?…" without the query). */
  requests: string[];
  close(): Promise<void>;
}

export const EXTRA_REDIRECT_URI = "http://localhost:3000/native/callback";

export async function startOpenIdProvider(options: {
  redirectURIs: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOpenIdProvider> {
  const accounts = new Map<string, TestAccount>();
  const clientId = options.clientId ?? "authd-test-client";
  const clientSecret = options.clientSecret ?? "authd-test-client-secret-0123456789";
  const { createServer } = await import("node:http");
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectURIs, EXTRA_REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    // The ID token carries the profile claims too, as Google's does (idToken sign-in reads them).
    conformIdTokenClaims: false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: { AccessToken: 3600, IdToken: 3600, RefreshToken: 86_400, Session: 3600, Grant: 3600, Interaction: 600 },
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(accounts.get(sub) ?? {}) }),
    }),
  });
  const requests: string[] = [];
  const handle = provider.callback();
  server.on("request", (req, res) => {
    requests.push(`${req.method} ${(req.url ?? "").split("?")[0]}`);
    handle(req, res);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A cookie jar and manual redirects: what a browser does between the daemon and the provider. */
export class Browser {
  private readonly cookies = new Map<string, Map<string, string>>();

  private jarFor(url: URL): Map<string, string> {
    const jar = this.cookies.get(url.host) ?? new Map<string, string>();
    this.cookies.set(url.host, jar);
    return jar;
  }

  /** Cookies this browser holds for a host ("127.0.0.1:3000"), by name. */
  cookiesFor(url: string): Map<string, string> {
    return this.jarFor(new URL(url));
  }

  async request(
    url: string,
    init: {
      method?: string;
      form?: Record<string, string>;
      json?: unknown;
      headers?: Record<string, string>;
      withoutCookies?: boolean;
    } = {},
  ): Promise<Response> {
    const target = new URL(url);
    const jar = this.jarFor(target);
    const headers: Record<string, string> = { ...init.headers };
    if (jar.size > 0 && !init.withoutCookies) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    const res = await fetch(target, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "manual",
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /**
   * Follow the provider's redirects and fill its login and consent forms until it sends the browser to
   * a URL starting with `stopAt` (the client's redirect URI); returns that URL.
   */
  async authorize(authorizationURL: string, login: string, stopAt: string): Promise<URL> {
    let url = authorizationURL;
    let form: Record<string, string> | undefined;
    for (let hop = 0; hop < 20; hop++) {
      if (url.startsWith(stopAt)) return new URL(url);
      const res = await this.request(url, form ? { form } : {});
      form = undefined;
      const location = res.headers.get("location");
      if (location) {
        url = new URL(location, url).toString();
        await res.body?.cancel();
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`provider page without a form (${res.status}): ${html.slice(0, 300)}`);
      form = html.includes('name="login"')
        ? { prompt: "login", login, password: "any-password" }
        : { prompt: "consent" };
      url = new URL(action.replace(/&amp;/g, "&"), url).toString();
    }
    throw new Error("too many redirects");
  }
}
