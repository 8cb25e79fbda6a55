import { SMTPServer } from "smtp-server";

// A real SMTP server on loopback that keeps every mail it receives, for tests that read links from mail.

export interface CapturedMail {
  to: string[];
  from: string;
  raw: string;
  /** The headers, the decoded subject and every part decoded, one after the other: what link and code patterns search. */
  text: string;
  /** The subject, decoded (RFC 2047). */
  subject: string;
  /** The text/plain part, decoded. */
  plain: string;
  /** The text/html part, decoded ("" when the mail has none). */
  html: string;
  /** The X-Authd-Mail header: which mail it is (verify-email, sign-in-code, …). */
  kind: string;
  at: number;
}

/** Quoted-printable to the bytes it stands for, read as UTF-8 (soft line breaks removed). */
function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const unfolded = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < unfolded.length; i += 1) {
    const hex = unfolded.slice(i + 1, i + 3);
    if (unfolded[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(unfolded[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodePartBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(part.body);
  return part.body;
}

/** Every leaf part of a MIME message, with its content type. */
function leafParts(part: Part): { type: string; text: string }[] {
  const contentType = part.headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const type = contentType.toLowerCase().split(";")[0].trim();
  if (!type.startsWith("multipart/") || !boundary) return [{ type, text: decodePartBody(part) }];
  return part.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((piece) => !piece.startsWith("--"))
    .flatMap((piece) => leafParts(splitPart(piece.replace(/^\r?\n/, ""))));
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header, decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function parseMail(raw: string) {
  const message = splitPart(raw);
  const parts = leafParts(message);
  const subject = decodeHeader(message.headers.get("subject") ?? "");
  const head = raw.slice(0, raw.length - message.body.length);
  return {
    subject,
    kind: message.headers.get("x-authd-mail") ?? "",
    plain: parts.find((p) => p.type === "text/plain")?.text ?? "",
    html: parts.find((p) => p.type === "text/html")?.text ?? "",
    text: [head, `Subject: ${subject}`, ...parts.map((p) => p.text)].join("\n"),
  };
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
          ...parseMail(raw),
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
