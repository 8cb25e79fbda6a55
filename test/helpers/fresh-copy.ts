import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

// A fresh clone as `npm ci` leaves it, without the network: what the documents' commands must work on.

export const REPOSITORY_ROOT = resolve(import.meta.dirname, "../..");

/** The files git would commit (tracked or not ignored), copied; node_modules linked as `npm ci` left it. */
export function freshCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), "authd-clone-"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPOSITORY_ROOT,
    encoding: "utf8",
  });
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    if (!existsSync(join(REPOSITORY_ROOT, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(REPOSITORY_ROOT, file), join(copy, file));
  }
  symlinkSync(join(REPOSITORY_ROOT, "node_modules"), join(copy, "node_modules"));
  return copy;
}
