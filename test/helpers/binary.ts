import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;

/**
 * Compile bin/authd.ts into a fresh temporary directory (the same build as `bun run build`) and return the
 * executable's path. Each test file builds its own copy, so parallel files never race on dist/.
 */
export function buildBinary(): string {
  const outfile = join(mkdtempSync(join(tmpdir(), "authd-bin-")), "authd");
  const result = spawnSync(process.execPath, ["scripts/build.ts", "--outfile", outfile], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  return outfile;
}
