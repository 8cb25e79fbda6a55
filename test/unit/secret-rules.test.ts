import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { estimatedEntropyBits, KNOWN_PUBLIC_VALUES, weakSecretReason } from "../../src/config/secret-rules.ts";

// Issue 26, item 2: the secret and the server token our own examples show, and values a person typed, are
// refused; generated ones pass.

const ROOT = resolve(import.meta.dirname, "../..");

/** Every file an operator reads or copies: the docs, the README, the deployment files and the examples. */
function operatorFiles(): string[] {
  const files = ["README.md", "compose.yaml", "Dockerfile", "CONTRIBUTING.md", "ARCHITECTURE.md", ".ci/run"];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const dir of ["docs", "deploy", "examples"]) walk(dir);
  return files;
}

/** Literal values given to the secret or the server token (env lines, YAML, JSON config), not `$(command)`. */
function literalSecrets(text: string): string[] {
  const patterns = [
    /\bAUTH_(?:SECRET|SERVER_TOKEN)\s*[=:]\s*["']?([^\s"'`$]+)/g,
    /"(?:secret|serverToken)"\s*:\s*"([^"$]+)"/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]));
}

/** Deterministic stand-ins for `head -c N /dev/urandom`: the test never depends on luck. */
function pseudoRandomBytes(seed: string, length: number): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; Buffer.concat(chunks).length < length; i++)
    chunks.push(createHash("sha256").update(`${seed}:${i}`).digest());
  return Buffer.concat(chunks).subarray(0, length);
}

describe("secret and server-token rules", () => {
  it("refuses every value the docs, the README, the deployment files and the examples show", () => {
    const found = operatorFiles().flatMap((file) =>
      literalSecrets(readFileSync(join(ROOT, file), "utf8")).map((value) => ({ file, value })),
    );
    // Given the env example's placeholder at least,
    const placeholder = "REPLACE-ME-with-head-c-48-dev-urandom-base64";
    expect(found).toContainEqual({ file: "deploy/authd.env.example", value: placeholder });
    // then each literal is refused, naming why.
    for (const { file, value } of found) expect(weakSecretReason(value), `${file}: ${value}`).not.toBeNull();
  });

  it("refuses the values the env example shipped, placeholders, and values a person typed", () => {
    for (const value of KNOWN_PUBLIC_VALUES) expect(weakSecretReason(value)).toMatch(/published/);
    expect(weakSecretReason("REPLACE-ME-with-the-output-of-head-c-48-dev-urandom-base64")).toMatch(/replaceme/);
    expect(weakSecretReason("my-super-Secret-key-that-is-long-enough-for-authd-1234")).toMatch(/secret/);
    expect(weakSecretReason("daemon-test-secret-daemon-test-secret-0123")).toMatch(/secret/);
  });

  it("refuses values under 32 bytes of estimated entropy, and says how many bits it counted", () => {
    expect(weakSecretReason("abcDEF123456")).toMatch(/about 72 bits of entropy, 256 needed/);
    // 63 hex characters are 252 bits; 64 are enough.
    expect(weakSecretReason(pseudoRandomBytes("hex", 32).toString("hex").slice(0, 63))).toMatch(/252 bits/);
    const digits = [...pseudoRandomBytes("digits", 70)].map((byte) => byte % 10).join("");
    expect(weakSecretReason(digits)).toMatch(/about 232 bits/);
    expect(estimatedEntropyBits(pseudoRandomBytes("b64", 32).toString("base64"))).toBe(43 * 6);
  });

  it("refuses repeated blocks and ascending runs however long the value is", () => {
    expect(weakSecretReason("a".repeat(80))).toMatch(/pattern/);
    expect(weakSecretReason("Xq9!Zr2#Wm4$".repeat(6))).toMatch(/pattern/);
    expect(weakSecretReason(`${pseudoRandomBytes("run", 30).toString("base64url")}abcdefgh`)).toMatch(/pattern/);
  });

  it("accepts what the documented commands generate (base64 of 32 and 48 bytes, hex of 32)", () => {
    for (let i = 0; i < 500; i++) {
      for (const value of [
        pseudoRandomBytes(`48:${i}`, 48).toString("base64"),
        pseudoRandomBytes(`32:${i}`, 32).toString("base64"),
        pseudoRandomBytes(`hex:${i}`, 32).toString("hex"),
      ])
        expect(weakSecretReason(value), value).toBeNull();
    }
  });

  it("refuses them only where asked (serve, config check), one line naming the variable or the file's key", () => {
    const [secret, serverToken] = KNOWN_PUBLIC_VALUES;
    const env = { AUTH_SECRET: secret, AUTH_SERVER_TOKEN: serverToken };
    expect(() => loadConfig({ env })).not.toThrow();
    expect(() => loadConfig({ env, refuseWeakSecrets: true })).toThrow(
      /^AUTH_SECRET: refused, the value is a value published in authd's examples; generate one: head -c 48 \/dev\/urandom \| base64\nAUTH_SERVER_TOKEN: refused/,
    );
    const strong = pseudoRandomBytes("same", 48).toString("base64");
    expect(() =>
      loadConfig({ env: { AUTH_SECRET: strong, AUTH_SERVER_TOKEN: strong }, refuseWeakSecrets: true }),
    ).toThrow("AUTH_SERVER_TOKEN: refused, the same value as AUTH_SECRET; generate a different one");
    expect(() => loadConfig({ overrides: { secret: `${"x".repeat(40)}` }, refuseWeakSecrets: true })).toThrow(
      /^secret: refused/,
    );
  });
});
