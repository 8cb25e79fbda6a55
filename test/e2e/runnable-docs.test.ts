import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { freshCopy, REPOSITORY_ROOT as ROOT } from "../helpers/fresh-copy.ts";

// The documents' commands work as written on a fresh clone (CONTRIBUTING.md, "Documentation"): every code
// block marked `sh runnable` runs with bash -e in a copy of the repository with Bun off PATH, in private
// network and pid namespaces (its own port 3000; anything it leaves running ends with it).

const DOCUMENTS = [
  "README.md",
  "CONTRIBUTING.md",
  "ARCHITECTURE.md",
  "bench/README.md",
  "clients/js/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

interface Block {
  document: string;
  line: number;
  code: string;
}

function runnableBlocks(document: string): Block[] {
  const text = readFileSync(join(ROOT, document), "utf8");
  return [...text.matchAll(/^```sh[ \t]+([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((match) => match[1].split(/\s+/).includes("runnable"))
    .map((match) => ({ document, line: text.slice(0, match.index).split("\n").length, code: match[2] }));
}

/** PATH without Bun: no node_modules/.bin (npm run adds it) and no directory holding a bun executable. */
const PATH_WITHOUT_BUN = (process.env.PATH ?? "")
  .split(":")
  .filter((dir) => dir && !dir.includes("node_modules") && !existsSync(join(dir, "bun")))
  .join(":");

function runBlock(copy: string, block: Block): Promise<{ code: number | null; output: string }> {
  const script = join(copy, `.runnable-${block.line}.sh`);
  writeFileSync(script, `set -eo pipefail\n${block.code}`);
  const child = spawn(
    "unshare",
    ["--net", "--pid", "--fork", "--mount", "--mount-proc", "bash", "-c", `ip link set lo up && exec bash "${script}"`],
    { cwd: copy, env: { PATH: PATH_WITHOUT_BUN, HOME: copy, LANG: "C.UTF-8" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((done) => child.once("exit", (code) => done({ code, output })));
}

const blocks = DOCUMENTS.flatMap(runnableBlocks);

describe("documented commands", () => {
  let copy: string;
  beforeAll(() => {
    copy = freshCopy();
  });

  it("has runnable blocks in the README and the CLI guide, and no Bun on the PATH they run with", () => {
    expect(blocks.map((b) => b.document)).toEqual(expect.arrayContaining(["README.md", "docs/cli.md"]));
    expect(spawnSync("bash", ["-c", "command -v bun"], { env: { PATH: PATH_WITHOUT_BUN } }).status).not.toBe(0);
  });

  for (const block of blocks) {
    it(`runs ${block.document}:${block.line} as written`, async () => {
      const result = await runBlock(copy, block);
      if (result.code !== 0) console.error(result.output);
      expect(result.code).toBe(0);
    }, 240_000);
  }

  it("names no bare `bun` command anywhere (Bun is not on PATH after npm ci)", () => {
    const bare = DOCUMENTS.flatMap((document) =>
      readFileSync(join(ROOT, document), "utf8")
        .split("\n")
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => /(^|[`|;&(]\s*|\$ )bun (run|bin\/|scripts\/|bench\/|test|x )/.test(line))
        .map(({ index, line }) => `${document}:${index + 1}: ${line.trim()}`),
    );
    expect(bare).toEqual([]);
  });
});
