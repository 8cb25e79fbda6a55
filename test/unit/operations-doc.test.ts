import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { BUILT_IN_RULES, UNLIMITED_PATHS } from "../../src/http/routes/rate-limit-rules.ts";

// docs/operations.md lists every built-in rate-limit rule with the numbers the code uses: a rule added or
// changed in a route file or src/http/routes/index.ts (or a default in the config schema) fails here until the
// document follows.

const doc = readFileSync(join(resolve(import.meta.dirname, "../.."), "docs/operations.md"), "utf8");
const section = doc.slice(doc.indexOf("## Rate limits"), doc.indexOf("## Errors at start"));
const rows = section.split("\n").filter((line) => line.startsWith("| `"));

describe("docs/operations.md, Rate limits", () => {
  it("has a row for every built-in rule, with its limit", () => {
    for (const rule of BUILT_IN_RULES) {
      const row = rows.find((line) => line.startsWith(`| \`${rule.path}\` |`));
      expect(row, `no row for ${rule.path}`).toBeDefined();
      expect(row).toContain(`| ${rule.max} per ${rule.window} s |`);
    }
    expect(rows.filter((line) => /^\| `\/[a-z/-]+\*?` \|/.test(line))).toHaveLength(BUILT_IN_RULES.length);
  });

  it("states the general rule, the unlimited paths and the account throttle with the defaults in force", () => {
    const config = loadConfig({ env: {} });
    expect(section).toContain(`${config.rateLimit.max} per ${config.rateLimit.window} s`);
    for (const path of UNLIMITED_PATHS) expect(section).toContain(`\`${path}\``);
    expect(section).toContain(`${config.accountThrottle.maxFailures} failed password attempts`);
    expect(section).toContain(`within ${config.accountThrottle.window} s`);
  });

  it("links the page about errors at start", () => {
    expect(doc).toContain("](operations-errors.md)");
  });
});

// How soon another daemon refuses a revoked session is measured (bench/revocation-staleness.ts) and stated
// in one place; the other documents link there instead of promising "at once" or another figure.
describe("the bound on a revocation seen by another daemon", () => {
  const read = (path: string) => readFileSync(join(resolve(import.meta.dirname, "../.."), path), "utf8");
  const security = read("docs/security.md");
  const inProcessCopies = security.slice(security.indexOf("### In-process copies"));

  it("is stated, with its measurements, in security.md's In-process copies", () => {
    expect(inProcessCopies).toContain("**How soon another daemon refuses a revoked session**");
    expect(inProcessCopies).toContain("bench/revocation-staleness.ts");
  });

  it("is linked, not restated, from the README and operations.md", () => {
    for (const [path, link] of [
      ["README.md", "docs/security.md#in-process-copies"],
      ["docs/operations.md", "security.md#in-process-copies"],
    ]) {
      const text = read(path);
      expect(text, path).toContain(`](${link})`);
      expect(text, path).not.toMatch(
        /revocations? (on any instance )?(is|are) seen by (every instance|all of them) at once/,
      );
    }
    expect(security).not.toContain("a few milliseconds after the commit");
  });
});

describe("docs/operations.md, During an outage", () => {
  it("says what a request refused by an outage answers", () => {
    const outage = doc.slice(doc.indexOf("### During an outage"));
    expect(outage).toContain("**503** with `Retry-After: 1`");
    expect(outage).toContain('{"code":"SERVICE_UNAVAILABLE","message":"Service unavailable"}');
    expect(outage).toContain("`AUTH_REDIS_TIMEOUT_MS`");
  });
});
