import type { BrowserContext } from "playwright-core";
import { expect } from "vitest";
import { LiveAgent } from "./live-agent.ts";

// Users of a running daemon (the compiled binary in the browser tests): signed up over HTTP, given a role by
// the server's token, and signed in in a browser context through the API (its session cookie then serves
// every page the context opens).

export interface LiveUser {
  /** An agent holding the user's session. */
  agent: LiveAgent;
  email: string;
  id: string;
}

export class LiveUsers {
  constructor(
    private readonly daemonURL: string,
    private readonly origin: string,
    private readonly serverToken: string,
    private readonly password: string,
  ) {}

  /** Sign up `email` as `name`; with `role`, the server then gives it that role. */
  async signUp(email: string, name: string, role?: string): Promise<LiveUser> {
    const agent = new LiveAgent(this.daemonURL, this.origin);
    const signedUp = await agent.post("/sign-up/email", { name, email, password: this.password });
    expect(signedUp.status).toBe(200);
    const id = (signedUp.json as { user: { id: string } }).user.id;
    if (role) expect((await this.asServer("/admin/set-role", { userId: id, role })).status).toBe(200);
    return { agent, email, id };
  }

  /** A call with the server's token. */
  asServer(path: string, body: unknown) {
    return new LiveAgent(this.daemonURL, this.origin).post(path, body, {
      authorization: `Bearer ${this.serverToken}`,
    });
  }

  /** Sign the browser context in as `email` through the API. */
  async signIn(context: BrowserContext, email: string): Promise<void> {
    const answer = await context.request.post(`${this.origin}/api/auth/sign-in/email`, {
      data: { email, password: this.password },
      headers: { origin: this.origin },
    });
    expect(answer.status()).toBe(200);
  }
}
