import { absorbSetCookies } from "./agent.ts";
import { TEST_ORIGIN } from "./context.ts";
import { type PeerResponse, peerRequest } from "./live-server.ts";

// A browser-like caller of a live daemon (test/helpers/live-server.ts): keeps cookies and sends the
// trusted Origin on POSTs, over a real socket. Bodies may be anything (raw strings, other content types).

export interface LiveRequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export class LiveAgent {
  readonly jar = new Map<string, string>();

  constructor(
    readonly baseURL: string,
    readonly origin: string = TEST_ORIGIN,
  ) {}

  async request(method: string, path: string, options: LiveRequestOptions = {}): Promise<PeerResponse> {
    const search = new URLSearchParams(options.query).toString();
    const headers: Record<string, string> = {};
    if (method !== "GET") headers.origin = this.origin;
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    Object.assign(headers, options.headers);
    const response = await peerRequest(this.baseURL, `/api/auth${path}${search ? `?${search}` : ""}`, {
      method,
      headers,
      body: options.body,
    });
    absorbSetCookies(this.jar, [response.headers["set-cookie"] ?? []].flat());
    return response;
  }

  get(path: string, query?: Record<string, string>): Promise<PeerResponse> {
    return this.request("GET", path, { query });
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>): Promise<PeerResponse> {
    return this.request("POST", path, { body, headers });
  }
}

export function uniqueEmail(label = "user"): string {
  return `${label}.${Math.random().toString(36).slice(2, 10)}@example.com`;
}

/** Sign a new user up on a live daemon; the agent holds their session. */
export async function liveSignUp(
  baseURL: string,
  fields: Record<string, unknown> = {},
): Promise<{ agent: LiveAgent; email: string; password: string; user: { id: string } }> {
  const agent = new LiveAgent(baseURL);
  const email = (fields.email as string | undefined) ?? uniqueEmail();
  const password = "correct-horse-battery";
  const res = await agent.post("/sign-up/email", { name: "Live User", password, ...fields, email });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { agent, email, password, user: (res.json as { user: { id: string } }).user };
}
