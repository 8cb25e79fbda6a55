import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The size limits of issue 27 (a production file in src/, ui/ or bin/ is at most 300 lines, a function at
// most 60) are checked by `npm test` before the suite: the function limit by Biome's
// noExcessiveLinesPerFunction in biome.json, the file limit by scripts/file-lengths.ts. These tests run
// both real tools over a small tree laid out like ours, so a configuration change that lets an overlong
// file or function through fails here.

const ROOT = resolve(import.meta.dirname, "../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");
const BUN = join(ROOT, "node_modules/.bin/bun");

const lines = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i));
/** A function whose body holds `count` statement lines. */
const fn = (name: string, count: number) =>
  [
    `export function ${name}(): number {`,
    "  let n = 0;",
    ...lines(count - 2, () => "  n += 1;"),
    "  return n;",
    "}",
  ].join("\n");
/** A file of exactly `count` lines. */
const file = (count: number) => `${lines(count, (i) => `export const v${i} = ${i};`).join("\n")}\n`;

const TREE: Record<string, string> = {
  "src/long-function.ts": `${fn("tooLong", 61)}\n`,
  "src/fits-function.ts": `${fn("fits", 60)}\n`,
  "ui/screen.tsx": `export const Screen = () => {\n${lines(62, (i) => `  const a${i} = ${i};`).join("\n")}\n  return a0;\n};\n`,
  "bin/tool.ts": `${fn("toolMain", 70)}\n`,
  "test/long.test.ts": `${fn("testHelper", 100)}\n`,
  "src/big.ts": file(301),
  "ui/at-limit.ts": file(300),
  "bin/big.ts": file(301),
  "test/big.test.ts": file(400),
  "bench/big.ts": file(400),
  "scripts/big.ts": file(400),
  "migrations/0001_big.ts": file(400),
  "src/http/map.generated.ts": file(400),
};

let dir: string;
let functionProblems: { file: string; message: string }[];
let fileRun: { status: number | null; lines: string[] };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "authd-size-limits-"));
  copyFileSync(join(ROOT, "biome.json"), join(dir, "biome.json"));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const args = ["lint", "--vcs-enabled=false", "--reporter=concise", "--colors=off", "--max-diagnostics=none", "."];
  const lint = spawnSync(BIOME, args, { cwd: dir, encoding: "utf8" });
  if (lint.error) throw lint.error;
  functionProblems = `${lint.stdout}\n${lint.stderr}`
    .split("\n")
    .map((line) => /^\S+ ([^:\s]+):\d+:\d+: lint\/complexity\/noExcessiveLinesPerFunction: (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, file, message]) => ({ file, message }));
  const files = spawnSync(BUN, [join(ROOT, "scripts/file-lengths.ts"), dir], { encoding: "utf8" });
  if (files.error) throw files.error;
  fileRun = { status: files.status, lines: files.stdout.split("\n").filter((line) => line !== "") };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("size limits", () => {
  it("refuses a production function over 60 lines, one line naming the file and the rule", () => {
    expect(functionProblems.map((p) => p.file).sort()).toEqual([
      "bin/tool.ts",
      "src/long-function.ts",
      "ui/screen.tsx",
    ]);
    expect(functionProblems.find((p) => p.file === "src/long-function.ts")?.message).toMatch(
      /too many lines \(61\)\. Maximum allowed is 60/,
    );
  });

  it("refuses a production file over 300 lines, one line each, and ignores tests, benchmarks, scripts, migrations and generated files", () => {
    expect(fileRun.status).toBe(1);
    expect(fileRun.lines).toEqual(["bin/big.ts: 301 lines (max 300)", "src/big.ts: 301 lines (max 300)"]);
  });
});
