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
  "ui/terminal/screens/users.ts":
    'import { profile } from "../../../src/http/routes/profile.ts";\nexport const screen = profile;\n',
  "ui/data.ts": 'import { user } from "../src/services/users.ts";\nexport const data = user;\n',
  "ui/reaches-http.ts": 'import { profile } from "../src/http/routes/profile.ts";\nexport const top = profile;\n',
  // The terminal UI: through ui/data.ts, src/wire, the leaf src/durations.ts and ui/shared; nothing else of src/.
  "ui/terminal/screens/allowed.ts": [
    'import type { User } from "../../../src/wire/user.ts";',
    'import { parseRate } from "../../../src/durations.ts";',
    'import { data } from "../../data.ts";',
    'import { toDay } from "../../shared/dates.ts";',
    "export const screen = [data, parseRate, toDay];",
    "export type Row = User;",
  ].join("\n"),
  "ui/terminal/screens/bypass.ts": [
    'import { user } from "../../../src/services/users.ts";',
    'import { table } from "../../../src/db/schema.ts";',
    'import type { Context } from "../../../src/context.ts";',
    'import { page } from "../../web/page.ts";',
    "export const screen = [user, table, page];",
    "export type Held = Context;",
  ].join("\n"),
  // What both front ends share: UI-agnostic and safe in a browser.
  "ui/shared/dates.ts": 'import type { User } from "../../src/wire/user.ts";\nexport type Dated = User;\n',
  "ui/shared/reaches.ts": [
    'import { user } from "../../src/services/users.ts";',
    'import { data } from "../data.ts";',
    'import { screen } from "../terminal/screens/allowed.ts";',
    'import { Text } from "ink";',
    "export const shared = [user, data, screen, Text];",
  ].join("\n"),
  // The web front end: HTTP through src/client in the browser; ui/data.ts only server-side.
  "ui/web/page.ts": [
    'import { createAuthClient } from "../../src/client/index.ts";',
    'import type { User } from "../../src/wire/user.ts";',
    'import { toDay } from "../shared/dates.ts";',
    "export const page = [createAuthClient, toDay];",
    "export type Shown = User;",
  ].join("\n"),
  "ui/web/bypass.ts": [
    'import { user } from "../../src/services/users.ts";',
    'import { table } from "../../src/db/schema.ts";',
    'import { data } from "../data.ts";',
    'import { screen } from "../terminal/screens/allowed.ts";',
    "export const page = [user, table, data, screen];",
  ].join("\n"),
  "ui/web/server/console.ts": 'import { data } from "../../data.ts";\nexport const console = data;\n',
  "ui/web/server/bypass.ts": 'import { user } from "../../../src/services/users.ts";\nexport const direct = user;\n',
  // The mails: drawn from their messages (src/wire) and the catalogue (ui/shared), with React; nothing else.
  "ui/mail/render.tsx": [
    'import { renderToStaticMarkup } from "react-dom/server";',
    'import type { User } from "../../src/wire/user.ts";',
    'import { toDay } from "../shared/dates.ts";',
    "export const mail = [renderToStaticMarkup, toDay];",
    "export type Recipient = User;",
  ].join("\n"),
  "ui/mail/bypass.ts": [
    'import { user } from "../../src/services/users.ts";',
    'import { data } from "../data.ts";',
    'import { page } from "../web/page.ts";',
    "export const mail = [user, data, page];",
  ].join("\n"),
  // The wire shapes: a leaf every layer imports.
  "src/wire/user.ts":
    'import * as z from "zod";\nimport { Iso } from "./common.ts";\nexport const User = z.object({ at: Iso });\n',
  "src/wire/reaches.ts": [
    'import { user } from "../services/users.ts";',
    'import { route } from "../http/routes/user.ts";',
    'import { table } from "../db/schema.ts";',
    'import { data } from "../../ui/data.ts";',
    "export const wire = [user, route, table, data];",
  ].join("\n"),
  "src/services/uses-wire.ts": 'import { User } from "../wire/user.ts";\nexport const shape = User;\n',
  "migrations/20260101000000_create_things.ts":
    'import { table } from "../src/db/schema.ts";\nexport const up = table;\n',
  "test/helpers/seed.ts":
    'import { findUser } from "../../src/db/repositories/users.ts";\nexport const seed = findUser;\n',
  "bench/seed.ts": 'import { table } from "../src/db/schema.ts";\nexport const seed = table;\n',
  // The platform (storage, rate limits, metrics, transactions, per-process state): below the services.
  "src/platform/store.ts": [
    'import { findUser } from "../db/repositories/users.ts";',
    'import { parseRate } from "../durations.ts";',
    "export const store = [findUser, parseRate];",
  ].join("\n"),
  "src/platform/reaches.ts": [
    'import { user } from "../services/users.ts";',
    'import type { Context } from "../context.ts";',
    'import { route } from "../http/routes/user.ts";',
    "export const platform = [user, route];",
    "export type Held = Context;",
  ].join("\n"),
  "src/services/uses-platform.ts": 'import { store } from "../platform/store.ts";\nexport const service = store;\n',
  "src/http/routes/uses-platform.ts":
    'import { store } from "../../platform/store.ts";\nexport const middleware = store;\n',
  // Optional features: the core services reach them only through hooks; the operator views and features may import them.
  "src/services/api-keys/rows.ts": "export const rows = 1;\nexport type Row = number;\n",
  "src/services/two-factor/challenge.ts": 'import { user } from "../users.ts";\nexport const challenge = user;\n',
  "src/services/claims.ts": [
    'import { rows } from "./api-keys/rows.ts";',
    'import { table } from "../db/repositories/passkeys.ts";',
    "export const claim = [rows, table];",
  ].join("\n"),
  "src/services/sign-in/gate.ts":
    'import { challenge } from "../two-factor/challenge.ts";\nexport const gate = challenge;\n',
  "src/services/sessions/copies.ts": 'import type { Row } from "../api-keys/rows.ts";\nexport type Copy = Row;\n',
  "src/services/directory.ts": 'import { rows } from "./api-keys/rows.ts";\nexport const listing = rows;\n',
  "src/services/two-factor/hooks.ts": [
    'import { user } from "../users.ts";',
    'import { rows } from "../api-keys/rows.ts";',
    'import { table } from "../../db/repositories/two-factor.ts";',
    "export const hooks = [user, rows, table];",
  ].join("\n"),
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
  // Biome lints files in parallel and does not always print one file's problems in source order: sorted
  // by position here, so each file's list reads in the order of its imports.
  problems = `${run.stdout}\n${run.stderr}`
    .split("\n")
    .map((line) => /^\S+ ([^:\s]+):(\d+):(\d+): (lint\/\S+): (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, file, line, column, rule, message]) => ({
      file,
      line: Number(line),
      column: Number(column),
      rule,
      message,
    }))
    .filter((problem) => IMPORT_RULES.includes(problem.rule))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column)
    .map(({ file, rule, message }) => ({ file, rule, message }));
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

  it("lets services, the platform, the context, the db layer itself, tests and benchmarks import src/db", () => {
    for (const file of [
      "src/services/users.ts",
      "src/platform/store.ts",
      "src/context.ts",
      "src/db/repositories/users.ts",
      "test/helpers/seed.ts",
      "bench/seed.ts",
    ]) {
      expect(flagged(file)).toEqual([]);
    }
  });

  it("keeps the terminal UI off src/http and the CLI off Ink, while ui/data.ts reads services", () => {
    expect(flagged("ui/terminal/screens/users.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: ui\/terminal reads and acts through ui\/data\.ts/),
    ]);
    expect(flagged("ui/reaches-http.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/ui\/ never imports src\/http/),
    ]);
    expect(flagged("ui/data.ts")).toEqual([]);
    expect(flagged("src/cli/commands/draws.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/ui\/terminal\/render\.tsx/),
    ]);
  });

  it("keeps services from reaching up into HTTP and migrations from importing app code", () => {
    expect(flagged("src/services/reaches-up.ts").map((p) => p.rule)).toEqual(["lint/style/noRestrictedImports"]);
    expect(flagged("migrations/20260101000000_create_things.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/never imports app code/),
    ]);
  });

  it("lets the terminal UI import only ui/data.ts, ui/shared, src/wire and src/durations.ts", () => {
    expect(flagged("ui/terminal/screens/allowed.ts")).toEqual([]);
    // services, the database and the context (a type import too): each past the data interface; then the web UI
    expect(flagged("ui/terminal/screens/bypass.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: ui\/terminal reads and acts through ui\/data\.ts/),
      expect.stringMatching(/^import-boundary: ui\/terminal reads and acts through ui\/data\.ts/),
      expect.stringMatching(/^import-boundary: ui\/terminal reads and acts through ui\/data\.ts/),
      expect.stringMatching(/^import-boundary: the terminal and web UIs never import each other/),
    ]);
  });

  it("keeps ui/shared UI-agnostic: no services, no ui/data.ts, no front end, no Ink", () => {
    expect(flagged("ui/shared/dates.ts")).toEqual([]);
    expect(flagged("ui/shared/reaches.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: ui\/shared is UI-agnostic and safe in a browser/),
      expect.stringMatching(/^import-boundary: ui\/shared imports neither front end nor ui\/data\.ts/),
      expect.stringMatching(/^import-boundary: ui\/shared imports neither front end nor ui\/data\.ts/),
      expect.stringMatching(/^import-boundary: ui\/shared is UI-agnostic: no Ink/),
    ]);
  });

  it("lets the web UI reach the daemon only over HTTP, or server-side through ui/data.ts", () => {
    expect(flagged("ui/web/page.ts")).toEqual([]);
    expect(flagged("ui/web/server/console.ts")).toEqual([]);
    expect(flagged("ui/web/bypass.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: ui\/web talks to the daemon over HTTP/),
      expect.stringMatching(/^import-boundary: ui\/web talks to the daemon over HTTP/),
      expect.stringMatching(/^import-boundary: browser code in ui\/web talks to the daemon over HTTP/),
      expect.stringMatching(/^import-boundary: the terminal and web UIs never import each other/),
    ]);
    expect(flagged("ui/web/server/bypass.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: ui\/web\/server reaches the services only through ui\/data\.ts/),
    ]);
  });

  it("lets the mails import only src/wire, src/durations.ts, ui/shared and React", () => {
    expect(flagged("ui/mail/render.tsx")).toEqual([]);
    expect(flagged("ui/mail/bypass.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: ui\/mail draws a mail from its message/),
      expect.stringMatching(/^import-boundary: ui\/mail imports no other front end/),
      expect.stringMatching(/^import-boundary: ui\/mail imports no other front end/),
    ]);
  });

  it("keeps src/wire a leaf that every layer may import", () => {
    expect(flagged("src/wire/user.ts")).toEqual([]);
    expect(flagged("src/services/uses-wire.ts")).toEqual([]);
    expect(flagged("src/wire/reaches.ts").map((p) => p.message)).toEqual(
      Array(4).fill(expect.stringMatching(/^import-boundary: src\/wire is a leaf/)),
    );
  });

  it("keeps src/platform below the services: no domain service, no context, no front end; the db allowed", () => {
    expect(flagged("src/platform/store.ts")).toEqual([]);
    expect(flagged("src/services/uses-platform.ts")).toEqual([]);
    expect(flagged("src/http/routes/uses-platform.ts")).toEqual([]);
    // a service and the context (a type import too): each a domain import; then a front end
    expect(flagged("src/platform/reaches.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(/^import-boundary: src\/platform is below the services/),
      expect.stringMatching(/^import-boundary: src\/platform is below the services/),
      expect.stringMatching(/^import-boundary: lower layers never import src\/http/),
    ]);
  });

  it("keeps the core services off the optional features, which the operator views and the features may import", () => {
    const core = /^import-boundary: the core services never import an optional feature/;
    // a feature's folder and a feature's repository; from top-level services, sign-in/ and sessions/ (a type too)
    expect(flagged("src/services/claims.ts").map((p) => p.message)).toEqual([
      expect.stringMatching(core),
      expect.stringMatching(core),
    ]);
    expect(flagged("src/services/sign-in/gate.ts").map((p) => p.message)).toEqual([expect.stringMatching(core)]);
    expect(flagged("src/services/sessions/copies.ts").map((p) => p.message)).toEqual([expect.stringMatching(core)]);
    expect(flagged("src/services/directory.ts")).toEqual([]);
    expect(flagged("src/services/two-factor/hooks.ts")).toEqual([]);
    expect(flagged("src/services/two-factor/challenge.ts")).toEqual([]);
  });

  it("refuses an import cycle, even one made of type imports only", () => {
    expect([...flagged("src/services/left.ts"), ...flagged("src/services/right.ts")].map((p) => p.rule)).toEqual([
      "lint/suspicious/noImportCycles",
      "lint/suspicious/noImportCycles",
    ]);
  });
});
