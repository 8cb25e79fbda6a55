// The checks `npm test` runs before the test suite (so CI runs them too): the types, then Biome over the
// whole tree (formatting, import order, lint rules, and the import-boundary and no-import-cycle rules in
// biome.json, and the function-length limit), then the production-file length limit. Every problem is one line naming the file and the rule; both checks always run, so one
// run shows everything, and the last lines say which check failed and how to fix it.
//
//   bun scripts/check.ts            all checks
//   bun scripts/check.ts PATH…      Biome on these files or folders only (types and file lengths are always whole)

import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "node_modules/.bin");

interface Check {
  name: string;
  command: string[];
  fix: string;
}

const paths = process.argv.slice(2);
const CHECKS: Check[] = [
  {
    name: "types",
    command: [join(BIN, "tsc"), "--noEmit", "--pretty", "false"],
    fix: "fix the type errors listed above (npx tsc --noEmit)",
  },
  {
    name: "biome",
    command: [
      join(BIN, "biome"),
      "ci",
      "--error-on-warnings",
      "--reporter=concise",
      "--max-diagnostics=none",
      `--colors=${process.stdout.isTTY ? "force" : "off"}`,
      ...(paths.length > 0 ? paths : ["."]),
    ],
    fix: "npx biome check --write . fixes formatting and import order; import-boundary and lint problems need a change by hand (ARCHITECTURE.md, Import rules); split a function over 60 lines by step",
  },
  {
    name: "file-lengths",
    command: [process.execPath, join(ROOT, "scripts/file-lengths.ts")],
    fix: "split each file listed above by responsibility (a production file in src/, ui/ or bin/ is at most 300 lines)",
  },
];

const failed: Check[] = [];
for (const check of CHECKS) {
  const result = spawnSync(check.command[0], check.command.slice(1), { cwd: ROOT, stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) failed.push(check);
}
for (const check of failed) process.stderr.write(`check failed: ${check.name}: ${check.fix}\n`);
if (failed.length === 0) process.stdout.write(`checks passed: ${CHECKS.map((c) => c.name).join(", ")}\n`);
process.exit(failed.length === 0 ? 0 : 1);
