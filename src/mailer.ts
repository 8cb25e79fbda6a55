import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { LogBlock, type Logger } from "./logger.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Which mail it is (verify-email, …), for the log. */
  kind?: string;
  /** Headers of the mail's own (X-Authd-Mail, …). */
  headers?: Record<string, string>;
  /** The language it was written in. */
  locale?: string;
  /** The link and the code it carries, written on lines of their own when the mail goes to the log. */
  link?: string | null;
  code?: string | null;
}

export interface Mailer {
  /** Send in the background's way: a failure is logged, never thrown (an answer must not depend on delivery). */
  send(mail: Mail): Promise<void>;
  /** Send and say how it went: rejects with DeliveryFailed (`authd mail send-test`). Without SMTP, logs it. */
  deliver(mail: Mail): Promise<void>;
  /** Connect (and log in) to the SMTP server once; rejects with the reason when it cannot (serve's start-up check). */
  verify(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpURL?: string;
  from: string;
  timeoutMs: number;
  logger: Logger;
  /** Attempts per mail for transient failures (connection errors, 4xx replies). */
  attempts?: number;
}

/**
 * SMTP transport options from an smtp:// or smtps:// URL:
 * - smtps://host[:465]: TLS from the first byte.
 * - smtp://host[:587]: STARTTLS when the server offers it; `?tls=required` refuses to send in clear,
 *   `?tls=off` never upgrades (a local relay or a test capture).
 * - user:pass@ (percent-encoded) for AUTH; `?insecure=on` accepts self-signed certificates.
 */
export function smtpTransportOptions(smtpURL: string, timeoutMs: number): SMTPTransport.Options {
  let url: URL;
  try {
    url = new URL(smtpURL);
  } catch {
    throw new Error("AUTH_SMTP_URL: not a valid URL");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    throw new Error("AUTH_SMTP_URL: expected smtp:// or smtps://");
  if (!url.hostname) throw new Error("AUTH_SMTP_URL: the URL names no host");
  const secure = url.protocol === "smtps:";
  const tls = url.searchParams.get("tls");
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    requireTLS: !secure && tls === "required",
    ignoreTLS: !secure && tls === "off",
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    tls: url.searchParams.get("insecure") === "on" ? { rejectUnauthorized: false } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  };
}

/** A mail the SMTP server did not take: its reason (never the body), after how many attempts. */
export class DeliveryFailed extends Error {
  constructor(
    cause: unknown,
    readonly attempts: number,
  ) {
    super((cause as Error).message ?? String(cause), { cause });
    this.name = "DeliveryFailed";
  }
}

function isTransient(error: unknown): boolean {
  const responseCode = (error as { responseCode?: number }).responseCode;
  if (typeof responseCode === "number") return responseCode >= 400 && responseCode < 500;
  // No SMTP reply at all: the connection failed or timed out, worth one more try.
  return true;
}

/**
 * A mail as the log shows it without SMTP: a line naming it, then its link and code on lines of their own
 * (easy to copy), then its text, every line indented under the first, so nothing in it can pass for a line
 * of the log. JSON logs carry the same as fields.
 */
function logMail(logger: Logger, mail: Mail): void {
  const lines = [
    ...(mail.link ? [`link: ${mail.link}`] : []),
    ...(mail.code ? [`code: ${mail.code}`] : []),
    ...mail.text
      .trimEnd()
      .split(/\r\n|\r|\n/)
      .map((line) => `| ${line}`),
  ];
  logger.info("mail (no SMTP configured)", {
    to: mail.to,
    subject: mail.subject,
    mail: mail.kind,
    language: mail.locale,
    content: new LogBlock(lines, { link: mail.link ?? null, code: mail.code ?? null, text: mail.text }),
  });
}

/**
 * SMTP when configured, the log otherwise (so a developer sees the links). Sending never throws to the
 * caller: a failing SMTP server is logged, and the caller's answer must not depend on delivery (that
 * would tell whether an address exists). Every wait is bounded by the timeout, so a stalled server
 * cannot pile up work or hold shutdown for long.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { logger } = options;
  if (!options.smtpURL) {
    return {
      async send(mail) {
        logMail(logger, mail);
      },
      async deliver(mail) {
        logMail(logger, mail);
      },
      async verify() {},
      close() {},
    };
  }
  const transportOptions = smtpTransportOptions(options.smtpURL, options.timeoutMs);
  // nodemailer (and the node:net/tls/stream stack it brings) loads with the first mail or verify, not at
  // start-up: about 10 MB of the daemon's idle memory otherwise (issue 17).
  let loading: Promise<Transporter> | undefined;
  const transport = () => {
    loading ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(transportOptions));
    return loading;
  };
  const attempts = Math.max(1, options.attempts ?? 2);
  /** Send, trying again after a transient failure; rejects with the last failure and the attempts made. */
  const deliver = async (mail: Mail): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await (await transport()).sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
        });
        logger.debug("mail sent", { to: mail.to, subject: mail.subject });
        return;
      } catch (error) {
        if (attempt < attempts && isTransient(error)) {
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
          continue;
        }
        throw new DeliveryFailed(error, attempt);
      }
    }
  };
  return {
    async send(mail) {
      try {
        await deliver(mail);
      } catch (error) {
        const failed = error as DeliveryFailed;
        // The message only: SMTP errors can echo the command, never the body (which holds the link).
        logger.error("mail delivery failed", {
          to: mail.to,
          subject: mail.subject,
          attempts: failed.attempts,
          error: failed.message,
        });
      }
    },
    deliver,
    async verify() {
      await (await transport()).verify();
    },
    close: () => {
      loading?.then((loaded) => loaded.close());
    },
  };
}
