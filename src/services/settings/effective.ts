import { ENV_BINDINGS } from "../../config/env-bindings.ts";
import { resolveBaseURL } from "../../config/load.ts";
import { maskConfig } from "../../config/masking.ts";
import { type Config, configKeys } from "../../config/schema.ts";
import type { SettingEntry, SettingValue } from "../../wire/settings.ts";

export type { SettingEntry };

// The effective configuration as the console's settings screen shows it: one row per setting (a dotted key,
// its value with every secret masked, and the AUTH_* variable that sets it), read-only. The masking is
// `authd config check`'s (src/config/masking.ts): by key name and by value, so a secret never leaves.

const ENV_BY_KEY = new Map(ENV_BINDINGS.map((binding) => [binding.path.join("."), binding.env]));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

function asValue(value: unknown): SettingValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return JSON.stringify(value);
}

function flatten(shown: unknown, original: unknown, key: string, into: SettingEntry[]): void {
  const listOfObjects = Array.isArray(shown) && shown.length > 0 && shown.every(isPlainObject);
  if ((isPlainObject(shown) && Object.keys(shown).length > 0) || listOfObjects) {
    const entries = Array.isArray(shown)
      ? shown.map((item, index) => [String(index), item] as const)
      : Object.entries(shown);
    for (const [name, item] of entries)
      flatten(item, (original as Record<string, unknown> | undefined)?.[name], key ? `${key}.${name}` : name, into);
    return;
  }
  const value = asValue(shown);
  const masked = JSON.stringify(value) !== JSON.stringify(asValue(original));
  into.push({ key, value, masked, env: ENV_BY_KEY.get(key) ?? null });
}

/** Every setting in effect, secrets masked, in the schema's order; unset optional ones (redisURL, …) as null. */
export function effectiveSettings(config: Config): SettingEntry[] {
  const resolved: Record<string, unknown> = { ...config, baseURL: resolveBaseURL(config) };
  const complete = Object.fromEntries(configKeys().map((key) => [key, resolved[key]]));
  const entries: SettingEntry[] = [];
  flatten(maskConfig(complete), complete, "", entries);
  return entries;
}
