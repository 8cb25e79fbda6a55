import { afterAll, beforeAll, expect } from "vitest";
import { createTestContext, signUp, type TestContext, type TestContextOptions } from "./context.ts";
import { type Mailbox, startMailbox } from "./mailbox.ts";

// Links as the daemon mails them, read from the real SMTP capture.

export const LINK = {
  verify: /https?:\/\/\S+\/verify-email\?token=\S+/,
  reset: /https?:\/\/\S+\/reset-password\/\S+/,
  delete: /https?:\/\/\S+\/delete-user\/callback\?token=\S+/,
  magicLink: /https?:\/\/\S+\/magic-link\/verify\?token=\S+/,
} as const;

/** How many mails `to` has received so far: pass it as `skip` to wait for a newer one. Settle the context first. */
export const mailCount = (mailbox: Mailbox, to: string): number => mailbox.to(to).length;

/** The newest link of a kind among the mails to `to` after the first `skip` (waiting up to 5 s for one). */
export async function mailedLink(mailbox: Mailbox, to: string, kind: keyof typeof LINK, skip = 0): Promise<URL> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const matching = mailbox
      .to(to)
      .slice(skip)
      .filter((m) => LINK[kind].test(m.text));
    if (matching.length > 0)
      return new URL((matching[matching.length - 1].text.match(LINK[kind]) as RegExpMatchArray)[0]);
    if (Date.now() > deadline) throw new Error(`no ${kind} link mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A one-time code as the plain-text part of every mail carries it: alone on its line. */
export const CODE_LINE = /^(\d{4,12})\r?$/m;

/** The mail (X-Authd-Mail) that carries each type of email code. */
const CODE_MAILS: Record<string, string> = {
  "sign-in": "sign-in-code",
  "email-verification": "email-verification-code",
  "forget-password": "password-reset-code",
};

/** The newest one-time code of `type` mailed to `to` after the first `skip` mails (waiting up to 5 s). */
export async function mailedCode(mailbox: Mailbox, to: string, type: string, skip = 0): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const codes = mailbox
      .to(to)
      .slice(skip)
      .filter((m) => m.kind === CODE_MAILS[type])
      .map((m) => m.plain.match(CODE_LINE)?.[1])
      .filter((code): code is string => code !== undefined);
    if (codes.length > 0) return codes[codes.length - 1];
    if (Date.now() > deadline) throw new Error(`no ${type} code mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Path and query of a mailed link, for the test agent. */
export const pathOf = (url: URL): string => `${url.pathname}${url.search}`;

/**
 * One test context per describe block whose mail goes to a real SMTP capture of its own. `ready`
 * receives both once they run; both are closed after the block.
 */
export function useMailContext(
  options: TestContextOptions,
  ready: (handles: { t: TestContext; mailbox: Mailbox }) => void,
): void {
  let handles: { t: TestContext; mailbox: Mailbox } | undefined;
  beforeAll(async () => {
    const mailbox = await startMailbox();
    const t = await createTestContext({ ...options, env: { AUTH_SMTP_URL: mailbox.url, ...options.env } });
    handles = { t, mailbox };
    ready(handles);
  });
  afterAll(async () => {
    await handles?.t.close();
    await handles?.mailbox.close();
  });
}

/** Sign a user up, ask for deletion with the password (deleteUser.requireVerification) and return the mailed link. */
export async function requestDeletion(t: TestContext, mailbox: Mailbox, callbackURL?: string) {
  const account = await signUp(t);
  await t.ctx.settle();
  const seen = mailCount(mailbox, account.email);
  const res = await account.agent.post("/delete-user", { password: account.password, callbackURL });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true, message: "Verification email sent" });
  const link = await mailedLink(mailbox, account.email, "delete", seen);
  return { ...account, link, token: link.searchParams.get("token") as string };
}
