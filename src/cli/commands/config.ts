import { Command } from "commander";
import * as z from "zod";
import { resolveBaseURL } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import { formatFields, writeLines } from "../format.ts";
import { createCommand, loadCommandConfig, parseFlags, printJSON } from "../shared.ts";

const MASK = "********";
const SECRET_KEYS = new Set(["secret", "serverToken", "clientSecret"]);
const URL_KEYS = new Set(["databaseURL", "redisURL", "smtpURL"]);

/** A URL with its password replaced, so it can be shown and logged. */
export function maskURLPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, `$1${MASK}@`);
}

/** The effective configuration with every secret masked; set secrets show as asterisks, unset as null. */
export function maskConfig(value: unknown, key = ""): unknown {
  if (SECRET_KEYS.has(key)) return value === undefined || value === null || value === "" ? null : MASK;
  if (URL_KEYS.has(key) && typeof value === "string") return maskURLPassword(value);
  if (Array.isArray(value)) return value.map((item) => maskConfig(item));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskConfig(v, k)]));
  return value;
}

export function effectiveConfig(config: Config): Record<string, unknown> {
  return maskConfig({ ...config, baseURL: resolveBaseURL(config) }) as Record<string, unknown>;
}

const CheckFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

const configCheck = createCommand(
  "check",
  "validate the configuration and print it, secrets masked (exit 2 when invalid)",
)
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(CheckFlags, raw);
    const shown = effectiveConfig(loadCommandConfig(flags));
    if (flags.json) return printJSON(shown);
    writeLines("configuration is valid", ...formatFields(shown).map((line) => `  ${line}`));
  });

export const configCommand = new Command("config").description("inspect the configuration").addCommand(configCheck);
