import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A plain OAuth 2.0 provider shaped like GitHub: an authorize endpoint that approves at once, a token
// endpoint checking the PKCE verifier and answering errors GitHub's way (200 + {error}), /user and
// /user/emails. Tests switch what /user does to provoke each failure.

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  avatar_url?: string;
}

export interface FakeGitHub {
  url: string;
  user: GitHubUser | Record<string, never>;
  emails: { email: string; primary: boolean; verified: boolean }[];
  /** What /user does: answer, fail with 500, or never answer. */
  userMode: "ok" | "error" | "hang";
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const codes = new Map<string, { challenge: string; redirectURI: string }>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const hanging = new Set<ServerResponse>();
  const fake: FakeGitHub = {
    url: "",
    user: {},
    emails: [],
    userMode: "ok",
    tokenRequests: [],
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const issueTokens = (res: ServerResponse) => {
    const access = randomUUID();
    const refresh = randomUUID();
    accessTokens.add(access);
    refreshTokens.add(refresh);
    json(res, 200, {
      access_token: access,
      token_type: "bearer",
      scope: "read:user,user:email",
      expires_in: 28800,
      refresh_token: refresh,
      refresh_token_expires_in: 15_897_600,
    });
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", fake.url);
    if (url.pathname === "/login/oauth/authorize") {
      // No login page: the user "approves" at once and is sent back with a code bound to the PKCE challenge.
      const code = randomUUID();
      codes.set(code, {
        challenge: url.searchParams.get("code_challenge") ?? "",
        redirectURI: url.searchParams.get("redirect_uri") ?? "",
      });
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state")!);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const form = await readForm(req);
      fake.tokenRequests.push(form);
      if (form.get("client_secret") !== "gh-secret") return json(res, 200, { error: "incorrect_client_credentials" });
      if (form.get("grant_type") === "refresh_token") {
        if (!refreshTokens.delete(form.get("refresh_token") ?? ""))
          return json(res, 200, { error: "bad_refresh_token" });
        return issueTokens(res);
      }
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      // GitHub answers 200 with an error object for a bad code.
      if (!grant || grant.challenge !== challenge || grant.redirectURI !== form.get("redirect_uri"))
        return json(res, 200, { error: "bad_verification_code" });
      return issueTokens(res);
    }
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (!accessTokens.has(token)) return json(res, 401, { message: "Bad credentials" });
    if (url.pathname === "/user") {
      if (fake.userMode === "hang") return void hanging.add(res);
      if (fake.userMode === "error") return json(res, 500, { message: "Server Error" });
      return json(res, 200, fake.user);
    }
    if (url.pathname === "/user/emails") return json(res, 200, fake.emails);
    json(res, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

export function gitHubConfig(gh: FakeGitHub) {
  return {
    clientId: "gh-client",
    clientSecret: "gh-secret",
    authorizationEndpoint: `${gh.url}/login/oauth/authorize`,
    tokenEndpoint: `${gh.url}/login/oauth/access_token`,
    userInfoEndpoint: `${gh.url}/user`,
    emailsEndpoint: `${gh.url}/user/emails`,
    // Long enough for a loaded machine to answer a loopback call (with 300 ms, token exchanges and profile
    // reads that should succeed timed out in full runs); a hanging endpoint still fails within it.
    timeoutMs: 2000,
  };
}
