// C0 control characters (U+0000–U+001F) and DEL (U+007F) in text that is stored. Postgres refuses NUL
// in text columns (a 500 where a refusal belongs, on one dialect only), and the others are invisible in
// listings, break log lines and can drive an operator's terminal (escape sequences in the CLI and TUI).

const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
// Free text may hold tab, line feed and carriage return.
const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** True when the text holds a control character (tab, LF and CR excepted when whitespace is allowed). */
export function hasControlCharacters(text: string, options: { allowWhitespace?: boolean } = {}): boolean {
  return (options.allowWhitespace ? CONTROL_BUT_WHITESPACE : ANY_CONTROL).test(text);
}

/** The text with every control character removed (for values taken from headers, not typed by a user). */
export function withoutControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, "");
}

/**
 * Where in a JSON value a control character sits (object keys single-line, string values free text),
 * as a path; null when there is none.
 */
export function controlCharacterPath(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return hasControlCharacters(value, { allowWhitespace: true }) ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlCharacterPath(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (hasControlCharacters(key)) return [...path, key];
      const found = controlCharacterPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
