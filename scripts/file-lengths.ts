// The production-file length limit `npm test` checks (scripts/check.ts runs this): a file in src/, ui/ or
// bin/ over MAX_LINES lines is a sign it holds more than one responsibility, and a reviewer cannot hold it
// in their head. Tests, benchmarks, scripts and migrations are not production code and are not counted, nor
// is a generated file (`*.generated.ts`: data a script writes and a test keeps current, read by no one).
// Function length is Biome's complexity/noExcessiveLinesPerFunction (biome.json).
//
//   bun scripts/file-lengths.ts [ROOT]     one line per file over the limit; exit 1 if any

import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export const MAX_LINES = 300;
const PRODUCTION = ["src", "ui", "bin"];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|jsx)$/;
const GENERATED = /\.generated\.ts$/;
const SKIP = new Set(["node_modules", "dist"]);

function* sourceFiles(dir: string): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) yield* sourceFiles(path);
    else if (entry.isFile() && SOURCE.test(entry.name) && !GENERATED.test(entry.name)) yield path;
  }
}

/** The line count as editors show it: a final newline does not start another line. */
function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

export function overlongFiles(root: string): string[] {
  const problems: string[] = [];
  for (const top of PRODUCTION) {
    for (const file of sourceFiles(join(root, top))) {
      const lines = countLines(readFileSync(file, "utf8"));
      if (lines > MAX_LINES) problems.push(`${relative(root, file)}: ${lines} lines (max ${MAX_LINES})`);
    }
  }
  return problems.sort();
}

if (import.meta.main) {
  const problems = overlongFiles(resolve(process.argv[2] ?? join(import.meta.dirname, "..")));
  for (const problem of problems) process.stdout.write(`${problem}\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
