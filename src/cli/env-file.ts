import { readFileSync } from "node:fs";
import { UserError } from "./shared.ts";

// `authd --env-file FILE <command>`: read the same file systemd's EnvironmentFile= (or Docker's env_file)
// gives the service, so an operator's command sees the service's database, secret and settings.
// Syntax: KEY=VALUE lines; blank lines and lines starting with # or ; are skipped; `export ` is allowed;
// a value may be wrapped in single or double quotes. Variables already set (not empty) in the environment win.

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

function unquote(value: string): string {
  const trimmed = value.trim();
  const quote = trimmed[0];
  if ((quote === '"' || quote === "'") && trimmed.length >= 2 && trimmed.endsWith(quote)) {
    const inner = trimmed.slice(1, -1);
    return quote === '"' ? inner.replace(/\\(["\\$`])/g, "$1").replace(/\\n/g, "\n") : inner;
  }
  return trimmed;
}

/** The variables of an environment file; a line that is not KEY=VALUE is a configuration error (exit 2). */
export function parseEnvFile(text: string, path: string): Record<string, string> {
  const values: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) return;
    const match = LINE.exec(line);
    if (!match) throw new UserError(`${path}:${index + 1}: expected KEY=VALUE`, 2);
    values[match[1]] = unquote(match[2]);
  });
  return values;
}

/** Load the file into process.env (without replacing variables that are already set and not empty). */
export function applyEnvFile(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const reason = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code;
    throw new UserError(`cannot read the env file ${path}: ${reason}`);
  }
  for (const [key, value] of Object.entries(parseEnvFile(text, path))) if (!process.env[key]) process.env[key] = value;
}
