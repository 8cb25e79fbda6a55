import { Command } from "commander";
import * as z from "zod";
import { ConfigError, resolveBaseURL } from "../../config/load.ts";
import { maskConfig } from "../../config/masking.ts";
import { type Config, configKeys } from "../../config/schema.ts";
import { unknownVariables } from "../../config/unknown-env.ts";
import { writeLines } from "../format.ts";
import { assertMailTemplates, createCommand, loadCommandConfig, parseFlags, printJSON } from "../shared.ts";

export function effectiveConfig(config: Config): Record<string, unknown> {
  return maskConfig({ ...config, baseURL: resolveBaseURL(config) }) as Record<string, unknown>;
}

function scalar(value: unknown): string {
  if (value === undefined || value === null || value === "") return "(not set)";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** The configuration as indented `key  value` lines: nested objects as sections, empty ones as `(none)`. */
export function renderConfig(value: Record<string, unknown>, depth = 0): string[] {
  const indent = "  ".repeat(depth);
  const leaves = Object.entries(value).filter(([, v]) => !isSection(v));
  const width = Math.max(0, ...leaves.map(([k]) => k.length)) + 2;
  const lines: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (isSection(item)) {
      lines.push(`${indent}${key}`, ...renderConfig(item as Record<string, unknown>, depth + 1));
    } else if (Array.isArray(item)) {
      const shown = item.length === 0 ? "(none)" : item.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
      lines.push(`${indent}${key.padEnd(width)}${Array.isArray(shown) ? shown.join(", ") : shown}`);
    } else if (item && typeof item === "object") {
      lines.push(`${indent}${key.padEnd(width)}(none)`);
    } else lines.push(`${indent}${key.padEnd(width)}${scalar(item)}`);
  }
  return lines;
}

function isSection(value: unknown): boolean {
  return (
    Boolean(value) && typeof value === "object" && !Array.isArray(value) && Object.keys(value as object).length > 0
  );
}

/** Every top-level key, the unset optional ones (redisURL, smtpURL, …) shown as `(not set)`. */
function withUnsetKeys(shown: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(configKeys().map((key) => [key, shown[key]]));
}

const CheckFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

const configCheck = createCommand(
  "check",
  "validate the configuration and print it, secrets masked (exit 2 when invalid)",
)
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(CheckFlags, raw);
    const config = loadCommandConfig(flags, {}, { refuseWeakSecrets: true });
    await assertMailTemplates(config);
    const unknown = unknownVariables(process.env);
    if (unknown.length > 0) throw new ConfigError(unknown);
    const shown = effectiveConfig(config);
    if (flags.json) return printJSON(shown);
    writeLines("configuration is valid; in effect (secrets masked):", "", ...renderConfig(withUnsetKeys(shown)));
  });

export const configCommand = new Command("config").description("inspect the configuration").addCommand(configCheck);
