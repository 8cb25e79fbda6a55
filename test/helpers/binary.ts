import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const WAIT_MS = 240_000;

function build(outfile: string): void {
  const result = spawnSync(process.execPath, ["scripts/build.ts", "--outfile", outfile], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Compile bin/authd.ts (the same build as `bun run build`) and return the executable's path. In a suite run
 * (test/global-setup.ts names a directory for it) the first test file to ask builds it once and every other
 * file, in any worker, waits for and runs that same executable: a build costs two compiles and a profiling
 * start, too much to repeat per file on two cores. A file run on its own builds its own copy.
 */
export function buildBinary(): string {
  const shared = process.env.AUTHD_TEST_BINARY_DIR;
  if (!shared) {
    const outfile = join(mkdtempSync(join(tmpdir(), "authd-bin-")), "authd");
    build(outfile);
    return outfile;
  }
  const outfile = join(shared, "authd");
  const failure = join(shared, "build-failed");
  let builder = false;
  try {
    mkdirSync(join(shared, "building"));
    builder = true;
  } catch {}
  if (builder) {
    const partial = join(shared, "authd.partial");
    try {
      build(partial);
      renameSync(partial, outfile);
    } catch (error) {
      writeFileSync(failure, String((error as Error).message));
      throw error;
    }
    return outfile;
  }
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; sleep(200)) {
    if (existsSync(outfile)) return outfile;
    if (existsSync(failure)) throw new Error(`the shared build failed:\n${readFileSync(failure, "utf8")}`);
  }
  throw new Error(`no executable in ${shared} after ${WAIT_MS / 1000} s`);
}
