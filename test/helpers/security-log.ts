import { expect } from "vitest";
import { createLogger, type Logger } from "../../src/logger.ts";

// The daemon's log as a test reads it: every line the context's logger writes (JSON format), with
// helpers for the security events among them.

export interface LoggedEvent {
  message: string;
  level: string;
  outcome: string;
  userId: string | null;
  actorType: string;
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
  [field: string]: unknown;
}

export interface CapturedLog {
  logger: Logger;
  /** Every line written so far, raw. */
  lines: string[];
  /** The security events of one type (`sign_in` for security.sign_in) written since the last `clear()`. */
  events(type: string): LoggedEvent[];
  clear(): void;
  /** No line, whatever its kind, contains any of these values. */
  expectNoSecrets(...secrets: (string | null | undefined)[]): void;
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const logger = createLogger({ level: "debug", format: "json", write: (line) => lines.push(line) });
  return {
    logger,
    lines,
    events: (type) =>
      lines.map((line) => JSON.parse(line) as LoggedEvent).filter((entry) => entry.message === `security.${type}`),
    clear: () => {
      lines.length = 0;
    },
    expectNoSecrets(...secrets) {
      const text = lines.join("\n");
      for (const secret of secrets) {
        if (!secret) throw new Error("expectNoSecrets needs the secret values themselves");
        expect(text.includes(secret), `the log holds a secret (${secret.slice(0, 4)}…)`).toBe(false);
      }
    },
  };
}

/** A whole security line as the JSON logger writes it: exactly these fields besides time, level and message. */
export const securityLine = (type: string, fields: Record<string, unknown>) => ({
  time: expect.any(String),
  level: "info",
  message: `security.${type}`,
  ...fields,
});

/** The source fields of a line: who acted, from which address, with which user agent. */
export const sourceFields = (
  actorType: string,
  actorId: string | null,
  ip: string | null,
  userAgent: string | null,
) => ({ actorType, actorId, ip, userAgent });
