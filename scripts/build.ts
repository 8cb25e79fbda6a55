// bun run build → dist/authd: one self-contained executable (Bun runtime, code, migrations, UI assets).
// `bun scripts/build.ts --outfile PATH` builds elsewhere (tests build their own copy, so parallel test
// files never race on dist/).
//
// Start-up time and idle memory (issue 17, measured by bench/footprint.ts):
// - splitting: what is loaded with import() (every CLI command but the one run, the terminal UI, nodemailer,
//   the WebAuthn library) sits in chunks of its own inside the executable, read only when imported;
// - bytecode: no parsing at start;
// - jitPolicy: run-once start-up code stays in the interpreter, so the JIT compilers are not paged in for
//   it (serve holds the JIT back further until the daemon is first busy: src/cli/main.ts, serve.ts);
// - bytecodeOrder: the build starts the executable once (`serve` on a temporary SQLite file, until /ok
//   answers), records which functions start-up runs, and builds again with those laid out first, so a
//   start reads less of the executable. `--no-profile` skips that (one build, a little more memory).

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { embeddedPageAssets } from "./embed-page-assets.ts";
import { freePort } from "./free-port.ts";

const outfileFlag = process.argv.indexOf("--outfile");
const outfile = outfileFlag > 0 ? process.argv[outfileFlag + 1] : "dist/authd";
const profile = !process.argv.includes("--no-profile");
const root = new URL("..", import.meta.url).pathname;
/** JavaScriptCore's tier-up thresholds are this many times higher from the start (serve: src/cli/main.ts). */
const START_UP_JIT_POLICY = 50;

const pageAssets = await embeddedPageAssets();

async function compile(bytecodeOrder?: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: [`${root}bin/authd.ts`],
    compile: { outfile, jitPolicy: START_UP_JIT_POLICY, bytecodeOrder },
    format: "esm",
    splitting: true,
    bytecode: true,
    minify: true,
    sourcemap: "linked",
    external: ["pg-native"],
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [
      pageAssets,
      {
        // Ink loads react-devtools-core only when DEV=true. It is not installed, and an external import would
        // make the binary fail at start-up, so the bundle gets an inert stand-in (the binary stays self-contained).
        name: "ink-without-devtools",
        setup(build) {
          build.onResolve({ filter: /^react-devtools-core$/ }, () => ({
            path: "react-devtools-core",
            namespace: "authd-stub",
          }));
          build.onLoad({ filter: /.*/, namespace: "authd-stub" }, () => ({
            contents: "export default { initialize() {}, connectToDevTools() {} };",
            loader: "js",
          }));
        },
      },
    ],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/** Start the executable's `serve` until /ok answers, then SIGTERM; returns the recorded function order. */
async function recordStartUp(dir: string): Promise<string> {
  const order = join(dir, "serve.order");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(outfile, ["serve"], {
    env: {
      PATH: process.env.PATH ?? "",
      BUN_BYTECODE_ORDER_OUT: order,
      AUTH_HOST: "127.0.0.1",
      AUTH_PORT: String(port),
      AUTH_BASE_URL: url,
      AUTH_DATABASE_URL: `sqlite://${join(dir, "profile.db")}`,
      AUTH_SECRET: "wh5JPBgzH561Qztz4-QSbJmlMEYyaTfqgU-Brka-IudTeSVmjPhOr4wRsgtsyBFb",
      AUTH_LOG_LEVEL: "error",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${outfile} serve exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/api/auth/ok`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${outfile} serve did not answer /ok in 30 s:\n${output}`);
    }
    await Bun.sleep(20);
  }
  child.kill("SIGTERM");
  const code = await exited(child);
  if (code !== 0) throw new Error(`${outfile} serve exited ${code} on SIGTERM:\n${output}`);
  return order;
}

mkdirSync(dirname(outfile), { recursive: true });
const started = performance.now();
await compile();
if (profile) {
  const dir = mkdtempSync(join(tmpdir(), "authd-build-profile-"));
  try {
    await compile(await recordStartUp(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`built ${outfile} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
