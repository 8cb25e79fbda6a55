import { SMTPServer } from "smtp-server";

// A real SMTP server on loopback that keeps every mail it receives, for tests that read links from mail.

export interface CapturedMail {
  to: string[];
  from: string;
  raw: string;
  text: string;
  at: number;
}

function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

function decodeBody(raw: string): string {
  let out = decodeQuotedPrintable(raw);
  for (const m of raw.matchAll(
    /Content-Transfer-Encoding:\s*base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi,
  )) {
    out += `\n${Buffer.from(m[1].replace(/\s+/g, ""), "base64").toString("utf8")}`;
  }
  return out;
}

export interface Mailbox {
  port: number;
  url: string;
  mails: CapturedMail[];
  /** The first mail to `to` whose text matches `pattern`, waiting up to timeoutMs. */
  waitFor(
    to: string,
    pattern: RegExp,
    options?: { timeoutMs?: number; since?: number },
  ): Promise<CapturedMail & { match: RegExpMatchArray }>;
  /** Mails to an address so far. */
  to(address: string): CapturedMail[];
  close(): Promise<void>;
}

export async function startMailbox(options: { onData?: () => Promise<void> } = {}): Promise<Mailbox> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", async () => {
        await options.onData?.();
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          raw,
          text: decodeBody(raw),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}?tls=off`,
    mails,
    async waitFor(to, pattern, { timeoutMs = 5000, since = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => m.at >= since && m.to.includes(to.toLowerCase()) && pattern.test(m.text));
        if (mail) return { ...mail, match: mail.text.match(pattern) as RegExpMatchArray };
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    to: (address) => mails.filter((m) => m.to.includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const VERIFY_LINK = /http:\/\/[^/\s]+(\/api\/auth\/verify-email\?token=[^\s]+)/;

/** Follow the verification link mailed to `email` with the agent holding that user's session. */
export async function verifyThroughMail(
  mailbox: Mailbox,
  agent: { get(path: string): Promise<unknown> },
  email: string,
): Promise<void> {
  const mail = await mailbox.waitFor(email, VERIFY_LINK);
  await agent.get(mail.match[1]);
}
