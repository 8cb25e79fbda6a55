import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// npm 11 runs a dependency's install script only when package.json's allowScripts approves it, and warns
// on every install about those it does not cover. Every package the lockfile marks as having one must be
// named: approved when authd needs what it does, denied otherwise.

const ROOT = resolve(import.meta.dirname, "../..");
const readJSON = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

interface LockEntry {
  hasInstallScript?: boolean;
}

describe("install scripts (package.json allowScripts)", () => {
  const manifest = readJSON("package.json") as { allowScripts?: Record<string, boolean> };
  const lock = readJSON("package-lock.json") as { packages: Record<string, LockEntry> };
  const allowScripts = manifest.allowScripts ?? {};

  it("covers every locked package with an install script, so npm ci prints no install-scripts warning", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });

  it("lets bun and esbuild put their native binaries in place, and denies the install-time telemetry ping", () => {
    expect(allowScripts.bun).toBe(true);
    expect(allowScripts.esbuild).toBe(true);
    expect(allowScripts["@scarf/scarf"]).toBe(false);
  });
});
