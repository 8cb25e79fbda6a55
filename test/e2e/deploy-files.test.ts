import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_BINDINGS } from "../../src/config/env-bindings.ts";
import { createAddressMatcher } from "../../src/ip-address.ts";
import { runCli } from "../cli/run.ts";
import { readRuntimeStage } from "../helpers/dockerfile.ts";

// The deployment files an operator copies: the systemd unit, the environment file, compose.yaml. Each is
// checked by the tool that reads it where the machine has one (systemd-analyze), and against the daemon's
// own configuration and the Dockerfile, so they cannot name a variable or a path authd does not know.

const ROOT = resolve(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const KNOWN = new Set(ENV_BINDINGS.map((b) => b.env));

function envKeys(text: string): string[] {
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

describe("deploy/authd.service", () => {
  const unit = read("deploy/authd.service");

  it("waits for the network to be online and reads the shared environment file", () => {
    expect(unit).toMatch(/^Wants=network-online\.target$/m);
    expect(unit).toMatch(/^After=network-online\.target/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/authd\/authd\.env$/m);
    expect(unit).toMatch(/^ExecStart=\/usr\/local\/bin\/authd serve$/m);
    expect(unit).toMatch(/^User=authd$/m);
    expect(unit).not.toMatch(/^DynamicUser=yes$/m);
  });

  it("is a unit systemd-analyze accepts without a warning", () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-unit-"));
    // verify checks that ExecStart exists: point it at a binary this machine has.
    writeFileSync(join(dir, "authd.service"), unit.replace("/usr/local/bin/authd", "/bin/true"));
    const result = spawnSync("systemd-analyze", ["verify", join(dir, "authd.service")], { encoding: "utf8" });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

/** Run the commands the env file's comments give for generating its secrets, in `dir` (holding authd.env). */
function fillInSecrets(example: string, dir: string): void {
  const commands = [...example.matchAll(/^#\s+(sed -i .+ authd\.env)$/gm)].map((m) => m[1]);
  expect(commands).toHaveLength(2);
  for (const command of commands) {
    const result = spawnSync("bash", ["-ec", command], { cwd: dir, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
  }
}

describe("deploy/authd.env.example and authd --env-file", () => {
  const example = read("deploy/authd.env.example");

  it("names only variables authd reads", () => {
    const keys = envKeys(example);
    expect(keys.length).toBeGreaterThan(8);
    expect(keys.filter((key) => !KNOWN.has(key))).toEqual([]);
  });

  it("lets an operator run commands against the service's database and settings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-envfile-"));
    const envFile = join(dir, "authd.env");
    writeFileSync(envFile, example.replace("sqlite:///var/lib/authd/authd.db", `sqlite://${join(dir, "authd.db")}`));
    // The harness's own AUTH_SECRET and AUTH_BASE_URL must not mask the file's: empty counts as unset.
    const bare = { env: { AUTH_SECRET: "", AUTH_BASE_URL: "" } };
    expect((await runCli(["--env-file", envFile, "migrate", "--json"], bare)).code).toBe(0);
    const created = await runCli(
      [
        "--env-file",
        envFile,
        "create-user",
        "--email",
        "ops@example.com",
        "--name",
        "Ops",
        "--password-stdin",
        "--json",
      ],
      { ...bare, input: "correct-horse-battery\n" },
    );
    expect(created.code).toBe(0);
    const listed = await runCli(["--env-file", envFile, "users", "list", "--json"], bare);
    expect(listed.code).toBe(0);
    expect(listed.json<{ email: string }[]>().map((u) => u.email)).toEqual(["ops@example.com"]);
    // The secrets as shipped are refused (issue 26, item 2); filled in with the file's own commands, they pass.
    const refused = await runCli(["--env-file", envFile, "config", "check", "--json"], bare);
    expect(refused.code).toBe(2);
    expect(
      refused.stderr
        .trim()
        .split("\n")
        .map((line) => line.split(":")[0]),
    ).toEqual(["AUTH_SECRET", "AUTH_SERVER_TOKEN"]);
    fillInSecrets(example, dir);
    const config = await runCli(["--env-file", envFile, "config", "check", "--json"], bare);
    expect(config.code, config.stderr).toBe(0);
    expect(config.stdout).toContain("https://auth.example.com");
    const filled = readFileSync(envFile, "utf8");
    expect(filled.match(/^AUTH_SECRET=(.+)$/m)?.[1]).not.toBe(filled.match(/^AUTH_SERVER_TOKEN=(.+)$/m)?.[1]);
  });

  it("lets a variable set in the environment win over the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-envfile-"));
    const envFile = join(dir, "authd.env");
    writeFileSync(
      envFile,
      `AUTH_DATABASE_URL=sqlite://${join(dir, "file.db")}\nexport AUTH_MAIL_FROM="file@example.com"\n`,
    );
    const res = await runCli(["--env-file", envFile, "config", "check", "--json"], {
      env: { AUTH_MAIL_FROM: "shell@example.com", AUTH_DATABASE_URL: `sqlite://${join(dir, "shell.db")}` },
    });
    expect(res.stdout).toContain("shell@example.com");
    expect(res.stdout).not.toContain("file@example.com");
  });

  it("refuses a missing file (exit 1) and a malformed line (exit 2) in one line each", async () => {
    const missing = await runCli(["--env-file", "/nonexistent/authd.env", "users", "list"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe("authd: cannot read the env file /nonexistent/authd.env: no such file");
    const dir = mkdtempSync(join(tmpdir(), "authd-envfile-"));
    const envFile = join(dir, "bad.env");
    writeFileSync(envFile, "# comment\nAUTH_PORT=3000\nthis is not a setting\n");
    const bad = await runCli(["--env-file", envFile, "users", "list"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(`authd: ${envFile}:3: expected KEY=VALUE`);
  });
});

interface ComposeService {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  env_file?: { path: string; required: boolean }[];
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

describe("compose.yaml", () => {
  const compose = Bun.YAML.parse(read("compose.yaml")) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
    networks?: { default?: { ipam?: { config?: { subnet?: string; gateway?: string }[] } } };
  };
  const { authd, postgres, redis } = compose.services;
  const stage = readRuntimeStage(join(ROOT, "Dockerfile"));

  it("runs authd, Postgres and Redis, each with a health check and a named volume", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["authd", "postgres", "redis"]);
    for (const service of [authd, postgres, redis]) {
      expect(service.healthcheck?.test.length).toBeGreaterThan(0);
      const [volume] = (service.volumes ?? [])[0]?.split(":") ?? [];
      expect(Object.keys(compose.volumes)).toContain(volume);
    }
  });

  it("starts authd once Postgres and Redis are healthy, from the env file, on the database compose creates", () => {
    expect(authd.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
    expect(authd.env_file).toEqual([{ path: "./authd.env", required: true }]);
    const env = authd.environment ?? {};
    const pg = postgres.environment ?? {};
    expect(env.AUTH_DATABASE_URL).toContain(`${pg.POSTGRES_USER}:`);
    expect(env.AUTH_DATABASE_URL).toMatch(new RegExp(`@postgres:5432/${pg.POSTGRES_DB}$`));
    expect(env.AUTH_REDIS_URL).toBe("redis://redis:6379");
    expect(Object.keys(env).filter((key) => !KNOWN.has(key))).toEqual([]);
  });

  it("publishes authd on the host's loopback only, for the host's proxy", () => {
    expect(authd.ports?.length).toBeGreaterThan(0);
    for (const port of authd.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(postgres.ports ?? []).toEqual([]);
    expect(redis.ports ?? []).toEqual([]);
  });

  it("trusts as proxy the bridge gateway the host's proxy arrives from, not loopback and not the other containers", () => {
    const [network] = compose.networks?.default?.ipam?.config ?? [];
    const { subnet = "", gateway = "" } = network ?? {};
    expect(subnet).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(createAddressMatcher([subnet])(gateway)).toBe(true);
    // compose's environment wins over authd.env, whose 127.0.0.1 would be the container itself.
    const trusted = createAddressMatcher((authd.environment?.AUTH_TRUSTED_PROXIES ?? "").split(","));
    expect(trusted(gateway)).toBe(true);
    expect(trusted("127.0.0.1")).toBe(false);
    const sibling = gateway.replace(/\.\d+$/, ".5");
    expect(createAddressMatcher([subnet])(sibling)).toBe(true);
    expect(trusted(sibling)).toBe(false);
  });

  it("uses the image's own health check command and volume", () => {
    expect(authd.healthcheck?.test).toEqual(["CMD", ...stage.healthcheck]);
    expect(authd.volumes).toEqual([`authd-data:${stage.volume}`]);
    expect(authd.build).toBe(".");
  });
});
