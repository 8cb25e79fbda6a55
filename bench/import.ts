import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { scratchDatabase } from "./scratch-database.ts";

// A large import (issue 33): N users in an authd.v1 file, each with a bcrypt hash and a linked provider,
// imported with `authd import authd FILE --commit` into a fresh SQLite file or Postgres schema. Prints the
// wall time, users per second and the importing process's peak resident memory (sampled from /proc).

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    users: { type: "string", default: "100000" },
    "batch-size": { type: "string", default: "500" },
    "dry-run": { type: "boolean", default: false },
  },
});
const users = Number(values.users);
const ROOT = resolve(import.meta.dirname, "..");
const BUN = join(ROOT, "node_modules/.bin/bun");

async function writeFile(path: string): Promise<void> {
  const hash = Bun.password.hashSync("bench-password", { algorithm: "bcrypt", cost: 10 });
  const out = createWriteStream(path);
  const write = (line: string) =>
    out.write(`${line}\n`) ? Promise.resolve() : new Promise((r) => out.once("drain", r));
  await write(JSON.stringify({ format: "authd.v1", users, secrets: true, hashConfigs: {} }));
  const created = "2024-01-01T00:00:00.000Z";
  for (let i = 0; i < users; i++)
    await write(
      JSON.stringify({
        id: `bench-${i}`,
        email: `user${i}@bench.example`,
        emailVerified: true,
        name: `User ${i}`,
        createdAt: created,
        updatedAt: created,
        password: hash,
        accounts: [{ provider: "github", accountId: String(1_000_000 + i) }],
      }),
    );
  await new Promise((r) => out.end(r));
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; peakKiB: number }> {
  return new Promise((done, fail) => {
    const child = spawn(BUN, [join(ROOT, "bin/authd.ts"), ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", AUTH_SECRET: "b".repeat(48), ...env },
    });
    let stdout = "";
    let peakKiB = 0;
    const sample = setInterval(() => {
      try {
        const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (rss) peakKiB = Math.max(peakKiB, Number(rss[1]));
      } catch {}
    }, 100);
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.pipe(process.stderr);
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(sample);
      done({ code: code ?? -1, stdout, peakKiB });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "authd-bench-import-"));
const database = await scratchDatabase(values.db ?? "sqlite", "import");
try {
  const file = join(dir, "users.jsonl");
  await writeFile(file);
  const env = { AUTH_DATABASE_URL: database.url };
  if ((await run(["migrate"], env)).code !== 0) throw new Error("migrate failed");
  const started = performance.now();
  const result = await run(
    [
      "import",
      "authd",
      file,
      ...(values["dry-run"] ? [] : ["--commit"]),
      "--batch-size",
      values["batch-size"] ?? "500",
      "--json",
    ],
    env,
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`import failed (${result.code})`);
  // A dry run exits 0 here too: the generated records have no problems.
  const report = JSON.parse(result.stdout) as { imported: number };
  console.log(
    `${values.db}: ${report.imported} users in ${seconds.toFixed(1)} s (${Math.round(report.imported / seconds)} users/s), peak RSS ${Math.round(result.peakKiB / 1024)} MiB`,
  );
} finally {
  await database.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
