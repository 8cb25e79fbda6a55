import { resolveBaseURL } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import { generateId } from "../../crypto/random.ts";
import type { OutboxMail } from "../../wire/mail.ts";

// The development outbox: with no SMTP server, the last mails this daemon would have sent, kept in memory
// for /account/dev/outbox (docs/mail.md). Only the newest 100 stay; nothing is written anywhere.

export const OUTBOX_SIZE = 100;

export interface MailOutbox {
  add(mail: Omit<OutboxMail, "id">): OutboxMail;
  /** Newest first. */
  list(): OutboxMail[];
  find(id: string): OutboxMail | undefined;
}

export function createOutbox(size = OUTBOX_SIZE): MailOutbox {
  const mails: OutboxMail[] = [];
  return {
    add(mail) {
      const kept = { id: generateId(), ...mail };
      mails.unshift(kept);
      if (mails.length > size) mails.length = size;
      return kept;
    },
    list: () => [...mails],
    find: (id) => mails.find((mail) => mail.id === id),
  };
}

/** Whether the address the daemon listens on is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Whether mails go to the outbox: only without SMTP, and only where no one but this machine can read it
 * (AUTH_DEV_OUTBOX=auto, the default: the daemon listens on loopback and its base URL names this machine;
 * a daemon on loopback behind a reverse proxy has a public base URL, and the proxy would hand the outbox to
 * anyone) or where the operator said so (=on).
 */
export function outboxEnabled(config: Config): boolean {
  if (config.smtpURL || config.devOutbox === "off") return false;
  if (config.devOutbox === "on") return true;
  return isLoopbackHost(config.host) && isLoopbackHost(new URL(resolveBaseURL(config)).hostname);
}
