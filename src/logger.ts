// Logs go to stderr: readable lines, or one JSON object a line with logFormat "json".

export type LogLevel = "debug" | "info" | "success" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, success: 2, warn: 3, error: 4 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  success(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Whether lines at `level` are written (a caller may skip building a line nobody reads); true if absent. */
  enabled?(level: LogLevel): boolean;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Unset: readable text, as the daemon contract says ("one JSON object a line when AUTH_LOG_FORMAT=json"). */
  format?: "text" | "json";
  write?: (line: string) => void;
}

/**
 * The format in force: the configured one, else text. The issue asked for JSON off a terminal, but the
 * daemon contract promises readable lines unless AUTH_LOG_FORMAT=json, and tests outside rely on it.
 */
export function resolveLogFormat(format: "text" | "json" | undefined): "text" | "json" {
  return format ?? "text";
}

/**
 * Lines written below a log line, indented, when logs are readable text (a mail in development, with its
 * link and code each on a line of its own); in JSON logs, the `json` value under the field's name.
 */
export class LogBlock {
  constructor(
    readonly lines: readonly string[],
    readonly json: unknown,
  ) {}

  toJSON(): unknown {
    return this.json;
  }
}

function formatValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.stack ?? value.message);
  if (typeof value === "string") return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const threshold = ORDER[options.level];
  const format = resolveLogFormat(options.format);
  const log =
    (level: LogLevel) =>
    (message: string, given: Record<string, unknown> = {}) => {
      if (ORDER[level] < threshold) return;
      const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      const time = new Date().toISOString();
      if (format === "json") {
        const plain = Object.fromEntries(
          Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack } : v]),
        );
        write(JSON.stringify({ time, level, message, ...plain }));
        return;
      }
      const extra = Object.entries(fields)
        .filter(([, v]) => !(v instanceof LogBlock))
        .map(([k, v]) => `${k}=${formatValue(v)}`)
        .join(" ");
      const below = Object.values(fields)
        .flatMap((v) => (v instanceof LogBlock ? v.lines : []))
        .map((line) => `\n  ${line}`.trimEnd())
        .join("");
      write(`${time} ${level.toUpperCase().padEnd(7)} ${message}${extra ? ` ${extra}` : ""}${below}`);
    };
  return {
    debug: log("debug"),
    info: log("info"),
    success: log("success"),
    warn: log("warn"),
    error: log("error"),
    enabled: (level) => ORDER[level] >= threshold,
  };
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  success() {},
  warn() {},
  error() {},
  enabled: () => false,
};
