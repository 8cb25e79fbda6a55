import { de } from "./de.ts";
import { en, type MessageKey } from "./en.ts";

// The message catalogue of authd's pages (and, next, its mails and console): one source language (en.ts)
// and its translations, the language picked per request, and `{name}` values filled in as plain text.

export type { MessageKey } from "./en.ts";

export const CATALOGUES = { en, de } as const;
export type Locale = keyof typeof CATALOGUES;
export const LOCALES = Object.keys(CATALOGUES) as Locale[];

/** Text direction of each language: every language here is written left to right; add "rtl" ones here. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(["ar", "fa", "he", "ur"]);
export const directionOf = (locale: string): "ltr" | "rtl" => (RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr");

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && value in CATALOGUES;

/**
 * The language to answer in: the user's own setting, else the first of the browser's Accept-Language
 * ranges that has a catalogue (by quality, then order; `de-AT` matches `de`), else the deployment's default.
 */
export function pickLocale(
  acceptLanguage: string | null | undefined,
  fallback: Locale,
  preferred?: string | null,
): Locale {
  if (isLocale(preferred)) return preferred;
  const ranges = (acceptLanguage ?? "")
    .slice(0, 512)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        language: tag.toLowerCase().split("-")[0] ?? "",
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranges.map((range) => range.language).find(isLocale) ?? fallback;
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** Messages of one language; a `{name}` without a value stays as written. */
export function translator(locale: Locale): Translate {
  const catalogue: Record<MessageKey, string> = CATALOGUES[locale];
  return (key, values) =>
    catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      values && name in values ? String(values[name]) : whole,
    );
}

/** The message for an error code from the API or a redirect's `?error=`, or the generic one. */
export function errorMessageKey(code: string | null | undefined): MessageKey {
  const key = `error.${code ?? ""}`;
  return key in en ? (key as MessageKey) : "error.generic";
}
