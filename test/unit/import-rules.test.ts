import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The import rules of ARCHITECTURE.md are enforced by biome.json (npm test runs Biome before the suite).
// These tests run the real Biome with the real biome.json over a small tree laid out like ours, so a
// change to the configuration that lets a forbidden import through fails here.

const ROOT = resolve(import.meta.dirname, "../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");

const TREE: Record<string, string> = {
  "src/db/schema.ts": "export const table = 1;\n",
  "src/db/repositories/users.ts": 'import { table } from "../schema.ts";\nexport const findUser = () => table;\n',
  "src/services/users.ts": 'import { findUser } from "../db/repositories/users.ts";\nexport const user = findUser;\n',
  "src/context.ts": 'import { table } from "./db/schema.ts";\nexport const context = table;\n',
  "src/http/routes/user.ts":
    'import { findUser } from "../../db/repositories/users.ts";\nexport const route = findUser;\n',
  "src/http/routes/profile.ts": 'import { user } from "../../services/users.ts";\nexport const profile = user;\n',
  "src/services/reaches-up.ts": 'import { route } from "../http/routes/user.ts";\nexport const up = route;\n',
  "src/cli/commands/users.ts":
    'import { findUser } from "../../db/repositories/users.ts";\nexport const command = findUser;\n',
  "src/cli/commands/draws.ts": 'import { render } from "ink";\nexport const draw = render;\n',
  "ui/screens/users.ts":
    'import { profile } from "../../src/http/routes/profile.ts";\nexport const screen = profile;\n',
  "ui/data.ts": 'import { user } from "../src/services/users.ts";\nexport const data = user;\n',
  "migrations/20260101000000_create_things.ts":
    'import { table } from "../src/db/schema.ts";\nexport const up = table;\n',
  "test/helpers/seed.ts":
    'import { findUser } from "../../src/db/repositories/users.ts";\nexport const seed = findUser;\n',
  "bench/seed.ts": 'import { table } from "../src/db/schema.ts";\nexport const seed = table;\n',
  // A cycle made only of type imports is still a cycle: the layers it ties together cannot be split.
  "src/services/left.ts": 'import type { Right } from "./right.ts";\nexport type Left = { right?: Right };\n',
  "src/services/right.ts": 'import type { Left } from "./left.ts";\nexport type Right = { left?: Left };\n',
};

const IMPORT_RULES = ["lint/style/noRestrictedImports", "lint/suspicious/noImportCycles"];

interface Problem {
  file: string;
  rule: string;
  message: string;
}

let dir: string;
let problems: Problem[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "authd-import-rules-"));
  copyFileSync(join(ROOT, "biome.json"), join(dir, "biome.json"));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const args = ["lint", "--vcs-enabled=false", "--reporter=concise", "--colors=off", "--max-diagnostics=none"];
  // Not --only: it would run a rule where biome.json turns it off.
  const run = spawnSync(BIOME, [...args, "."], { cwd: dir, encoding: "utf8" });
  if (run.error) throw run.error;
  problems = `${run.stdout}\n${run.stderr}`
    .split("\n")
    .map((line) => /^\S+ ([^:\s]+):\d+:\d+: (lint\/\S+): (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, file, rule, message]) => ({ file, rule, message }))
    .filter((problem) => IMPORT_RULES.includes(problem.rule));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flagged = (file: string) => problems.filter((p) => p.file === file);

describe("import rules (biome.json)", () => {
  it("refuses a repository import outside services and the context, naming the rule in one line", () => {
    for (const file of ["src/http/routes/user.ts", "src/cli/commands/users.ts"]) {
      expect(flagged(file)).toEqual([
        {
          file,
          rule: "lint/style/noRestrictedImports",
          message: expect.stringMatching(/^import-boundary: only src\/services\//),
        },
      ]);
    }
  });

  it("lets services, the context, the db layer itself, tests and benchmarks import src/db", () => {
    for (const file of [
      "src/services/users.ts",
      "src/context.ts",
      "src/db/repositories/users.ts",
      "test/helpers/seed.ts",
      "bench/seed.ts",
    ]) {
      expect(flagged(file)).toEqual([]);
    }
  });

  it("keeps the terminal UI off src/http and the CLI off Ink, while the UI reads services", () => {
    expect(flagged("ui/screens/users.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/ui\/ never imports src\/http/),
    ]);
    expect(flagged("ui/data.ts")).toEqual([]);
    expect(flagged("src/cli/commands/draws.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/ui\/render\.tsx/),
    ]);
  });

  it("keeps services from reaching up into HTTP and migrations from importing app code", () => {
    expect(flagged("src/services/reaches-up.ts").map((p) => p.rule)).toEqual(["lint/style/noRestrictedImports"]);
    expect(flagged("migrations/20260101000000_create_things.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/never imports app code/),
    ]);
  });

  it("refuses an import cycle, even one made of type imports only", () => {
    expect([...flagged("src/services/left.ts"), ...flagged("src/services/right.ts")].map((p) => p.rule)).toEqual([
      "lint/suspicious/noImportCycles",
      "lint/suspicious/noImportCycles",
    ]);
  });
});
