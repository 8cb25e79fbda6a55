import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_PUBLIC_VALUES } from "../../src/config/secret-rules.ts";
import { runCli } from "./run.ts";
import { tryServe } from "./serve-attempt.ts";

// Issue 26, item 2: with deploy/authd.env.example as it shipped, the publicly known server token read
// /admin/audit-log (200). `serve` and `config check` now refuse such values before anything listens.

const [SHIPPED_SECRET, SHIPPED_TOKEN] = KNOWN_PUBLIC_VALUES;
const strong = () => randomBytes(48).toString("base64");

/** Start `serve` with `env`; if it comes up, ask for the audit log with the published token. */
async function tryServeAndAttack(env: Record<string, string>) {
  const attempt = await tryServe(env, async (origin) => {
    const attack = await fetch(`${origin}/api/auth/admin/audit-log`, {
      headers: { authorization: `Bearer ${SHIPPED_TOKEN}` },
    });
    return attack.status;
  });
  return { code: attempt.code, stderr: attempt.stderr, attackStatus: attempt.up };
}

describe("published and weak secrets are refused", () => {
  it("serve refuses the env example's shipped values (exit 2, one line per variable) and never answers", async () => {
    // Given the secret and server token deploy/authd.env.example shipped with,
    const attempt = await tryServeAndAttack({ AUTH_SECRET: SHIPPED_SECRET, AUTH_SERVER_TOKEN: SHIPPED_TOKEN });
    // then the attacker holding the published token never reaches the audit log,
    expect(attempt.attackStatus).toBeNull();
    // because serve stopped before listening, saying what to change.
    expect(attempt.code).toBe(2);
    const lines = attempt.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^AUTH_SECRET: refused, the value is a value published in authd's examples; generate/);
    expect(lines[1]).toMatch(/^AUTH_SERVER_TOKEN: refused, .*head -c 48 \/dev\/urandom \| base64$/);
  }, 60_000);

  it("serve refuses a short server token and a token equal to the secret, and starts with generated ones", async () => {
    const short = await tryServeAndAttack({ AUTH_SECRET: strong(), AUTH_SERVER_TOKEN: "Zx81kq0PmA77wQe3" });
    expect(short.code).toBe(2);
    expect(short.stderr.trim()).toMatch(
      /^AUTH_SERVER_TOKEN: refused, the value has about 96 bits of entropy, 256 needed/,
    );
    const same = strong();
    const shared = await tryServeAndAttack({ AUTH_SECRET: same, AUTH_SERVER_TOKEN: same });
    expect(shared.code).toBe(2);
    expect(shared.stderr.trim()).toMatch(/^AUTH_SERVER_TOKEN: refused, the same value as AUTH_SECRET/);
    // With generated values the daemon comes up, and the published token is just a wrong one (no session: 401).
    const fine = await tryServeAndAttack({ AUTH_SECRET: strong(), AUTH_SERVER_TOKEN: strong() });
    expect(fine.attackStatus).toBe(401);
    expect(fine.code).toBe(0);
  }, 90_000);

  it("config check refuses them the same way, naming the config file's key when the file set it", async () => {
    const result = await runCli(["config", "check"], {
      env: { AUTH_SECRET: SHIPPED_SECRET, AUTH_SERVER_TOKEN: strong(), AUTH_DATABASE_URL: "sqlite://:memory:" },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^AUTH_SECRET: refused/);
    const file = join(mkdtempSync(join(tmpdir(), "authd-refusal-")), "authd.json");
    writeFileSync(file, JSON.stringify({ secret: "please-let-me-in-".repeat(3) }));
    const fromFile = await runCli(["config", "check", "--config", file], { env: { AUTH_SECRET: "" } });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr.trim()).toMatch(/^secret: refused, the value repeats a pattern/);
  });

  it("config check accepts the old, published secret as AUTH_SECRET_PREVIOUS (the way out) and masks it", async () => {
    const result = await runCli(["config", "check", "--json"], {
      env: { AUTH_SECRET: strong(), AUTH_SECRET_PREVIOUS: `${SHIPPED_SECRET}, ${strong()}` },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json<{ previousSecrets: string[] }>().previousSecrets).toEqual(["********", "********"]);
    expect(result.stdout).not.toContain(SHIPPED_SECRET);
  });

  it("an unset secret is still generated and stored, and other commands still run with a refused one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-refusal-"));
    const env = { AUTH_SECRET: "", AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}` };
    expect((await runCli(["config", "check", "--json"], { env })).code).toBe(0);
    // A refused value does not lock the operator out of the database: migrate and the listings still work.
    const refused = { env: { ...env, AUTH_SECRET: SHIPPED_SECRET } };
    expect((await runCli(["migrate"], refused)).code).toBe(0);
    const listed = await runCli(["users", "list", "--json"], refused);
    expect(listed.code, listed.stderr).toBe(0);
  });
});
