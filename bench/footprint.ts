// bench/footprint: the compiled daemon's size, cold start and memory.
//
//   bun bench/footprint.ts                      # build dist/authd, 10 runs
//   bun bench/footprint.ts --no-build --runs 5  # reuse dist/authd
//   bun bench/footprint.ts --binary /tmp/old/authd --binary dist/authd   # compare builds, alternating
//
// Each run starts `authd serve` on a fresh temporary SQLite file twice: the first start applies every
// migration, the second finds the schema current (the usual restart). Cold start is the wall time from
// spawn() to the first 200 from GET /api/auth/ok, polled every millisecond. After the second start the
// daemon idles 2 s, then VmRSS is read from /proc; then one user signs up and `--requests` cache-off
// get-session calls go out, 16 at a time, and VmRSS is read again after 1 s. For comparison the same is
// measured for a bare `bun build --compile` Bun.serve binary (the Bun runtime's own floor).

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../scripts/free-port.ts";

const root = new URL("..", import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    requests: { type: "string", default: "1000" },
    "no-build": { type: "boolean", default: false },
    "no-baseline": { type: "boolean", default: false },
    binary: { type: "string", multiple: true },
  },
});
const runs = Number(args.runs);
const requests = Number(args.requests);
const IDLE_MS = 2000;
const AFTER_LOAD_MS = 1000;

/**
 * Drop a file's pages from the page cache (GNU dd's `iflag=nocache count=0`), so every binary measured starts
 * from the same state. A file written moments ago (a fresh build, a copy) keeps the pages its writing left
 * in the cache, and a process mapping it then shows about 5 MB more RssFile than one mapping the same bytes
 * read back from disk: measured on this machine with byte-identical copies, 38.4 against 33.5 MB, and the
 * same after dropping the caches (bench/README.md, "Speed, round five").
 */
function forgetCachedPages(path: string): void {
  const dd = spawnSync("dd", [`if=${path}`, "iflag=nocache", "count=0"], { stdio: "ignore" });
  if (dd.status !== 0) console.log(`(could not drop ${path} from the page cache; a fresh build measures higher)`);
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMB(pid: number, field = "VmRSS"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field} for ${pid}`);
  return Number(line.split(/\s+/)[1]) / 1024;
}

interface Started {
  child: ChildProcess;
  url: string;
  startMs: number;
  stop(): Promise<void>;
}

async function start(binary: string, args: string[], env: Record<string, string>, okPath: string): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const began = performance.now();
  const child = spawn(binary, args, {
    env: {
      PATH: process.env.PATH ?? "",
      AUTH_HOST: "127.0.0.1",
      AUTH_PORT: String(port),
      AUTH_BASE_URL: url,
      AUTH_SECRET: "JJfhAZcqF3imN8vPgS26kV6tCPeb75GSc6pthHO6WeLPLu7Tw-LG2as6OJDkR6B4",
      AUTH_RATE_LIMIT: "off",
      AUTH_LOG_LEVEL: "error",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const deadline = began + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${binary} exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}${okPath}`)).status === 200) break;
    } catch {}
    if (performance.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${binary} not answering in 20 s:\n${output}`);
    }
    await Bun.sleep(1);
  }
  const startMs = performance.now() - began;
  return {
    child,
    url,
    startMs,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** `count` calls of `call`, `concurrency` in flight at once. */
async function load(count: number, concurrency: number, call: () => Promise<Response>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await call();
      if (response.status !== 200) throw new Error(`load request answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

interface Sample {
  firstStartMs: number;
  startMs: number;
  idleMB: number;
  /** VmHWM before any request: the start-up's own peak. */
  idlePeakMB: number;
  loadedMB: number;
  peakMB: number;
}

async function measureAuthd(binary: string): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), "authd-footprint-"));
  const env = { AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}` };
  try {
    const first = await start(binary, ["serve"], env, "/api/auth/ok");
    await first.stop();
    const daemon = await start(binary, ["serve"], env, "/api/auth/ok");
    try {
      const pid = daemon.child.pid as number;
      await Bun.sleep(IDLE_MS);
      const idleMB = rssMB(pid);
      const idlePeakMB = rssMB(pid, "VmHWM");
      const signUp = await fetch(`${daemon.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: daemon.url },
        body: JSON.stringify({ name: "Footprint", email: "footprint@example.com", password: "correct-horse-battery" }),
      });
      if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
      const cookie = signUp.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      await load(requests, 16, () =>
        fetch(`${daemon.url}/api/auth/get-session?disableCookieCache=true`, { headers: { cookie } }),
      );
      await Bun.sleep(AFTER_LOAD_MS);
      return {
        firstStartMs: first.startMs,
        startMs: daemon.startMs,
        idleMB,
        idlePeakMB,
        loadedMB: rssMB(pid),
        peakMB: rssMB(pid, "VmHWM"),
      };
    } finally {
      await daemon.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bare Bun.serve answering "ok", compiled the same way: what any compiled Bun server costs. */
function buildBaseline(): string {
  const dir = mkdtempSync(join(tmpdir(), "authd-footprint-bare-"));
  const source = join(dir, "bare.ts");
  writeFileSync(
    source,
    'Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.AUTH_PORT), fetch: () => new Response("ok") });\n',
  );
  const outfile = join(dir, "bare");
  const build = spawnSync(process.execPath, ["build", "--compile", source, "--outfile", outfile], { encoding: "utf8" });
  if (build.status !== 0) throw new Error(`baseline build failed:\n${build.stderr}`);
  return outfile;
}

async function measureBaseline(binary: string): Promise<Sample> {
  const server = await start(binary, [], {}, "/");
  try {
    const pid = server.child.pid as number;
    await Bun.sleep(IDLE_MS);
    const idleMB = rssMB(pid);
    const idlePeakMB = rssMB(pid, "VmHWM");
    await load(requests, 16, () => fetch(`${server.url}/get-session`));
    await Bun.sleep(AFTER_LOAD_MS);
    return {
      firstStartMs: server.startMs,
      startMs: server.startMs,
      idleMB,
      idlePeakMB,
      loadedMB: rssMB(pid),
      peakMB: rssMB(pid, "VmHWM"),
    };
  } finally {
    await server.stop();
  }
}

function summary(label: string, values: number[], unit: string, digits = 0): string {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
  const f = (n: number) => n.toFixed(digits);
  return `  ${label.padEnd(34)} median ${f(median).padStart(6)} ${unit}   min ${f(sorted[0]).padStart(6)}   max ${f(sorted[sorted.length - 1]).padStart(6)}`;
}

function report(title: string, binary: string, samples: Sample[], daemon: boolean): void {
  console.log(`\n${title}: ${binary} (${(statSync(binary).size / 1024 / 1024).toFixed(1)} MB), ${samples.length} runs`);
  if (daemon) {
    console.log(
      summary(
        "cold start, empty database",
        samples.map((s) => s.firstStartMs),
        "ms",
      ),
    );
    console.log(
      summary(
        "cold start, schema current",
        samples.map((s) => s.startMs),
        "ms",
      ),
    );
  } else
    console.log(
      summary(
        "cold start",
        samples.map((s) => s.startMs),
        "ms",
      ),
    );
  console.log(
    summary(
      `idle RSS (${IDLE_MS / 1000} s after start)`,
      samples.map((s) => s.idleMB),
      "MB",
      1,
    ),
  );
  console.log(
    summary(
      "start-up peak RSS (VmHWM)",
      samples.map((s) => s.idlePeakMB),
      "MB",
      1,
    ),
  );
  console.log(
    summary(
      `RSS after ${requests} get-session`,
      samples.map((s) => s.loadedMB),
      "MB",
      1,
    ),
  );
  console.log(
    summary(
      daemon ? "peak RSS (VmHWM, scrypt included)" : "peak RSS (VmHWM)",
      samples.map((s) => s.peakMB),
      "MB",
      1,
    ),
  );
}

async function main() {
  const binaries = args.binary ?? [join(root, "dist/authd")];
  if (!args.binary && (!args["no-build"] || !existsSync(binaries[0]))) {
    const build = spawnSync(process.execPath, ["scripts/build.ts"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  const load1 = loadavg()[0].toFixed(2);
  console.log(
    `authd footprint: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Bun ${Bun.version}, load average ${load1}`,
  );
  const baseline = args["no-baseline"] ? null : buildBaseline();
  for (const binary of [...binaries, ...(baseline ? [baseline] : [])]) forgetCachedPages(binary);
  const samples: Sample[][] = binaries.map(() => []);
  const bare: Sample[] = [];
  // Alternate the binaries so all see the same machine.
  for (let i = 0; i < runs; i += 1) {
    for (const [n, binary] of binaries.entries()) samples[n].push(await measureAuthd(binary));
    if (baseline) bare.push(await measureBaseline(baseline));
  }
  for (const [n, binary] of binaries.entries()) report("authd serve", binary, samples[n], true);
  if (baseline) report("bare Bun.serve", baseline, bare, false);
  console.log(
    `\nload average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  if (baseline) rmSync(join(baseline, ".."), { recursive: true, force: true });
}

await main();
