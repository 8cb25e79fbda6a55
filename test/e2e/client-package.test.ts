import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshCopy } from "../helpers/fresh-copy.ts";
import { type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// @authd/client as an app gets it: `npm run pack:client` on a fresh clone, installed from the
// tarball into a scratch project with nothing else, imported by Node, and used against a running authd.

const ROOT = resolve(import.meta.dirname, "../..");
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8" });

describe("the @authd/client package", () => {
  let tarball: string;
  let app: string;
  let daemon: RunningAuthd;
  let clone: string;
  beforeAll(async () => {
    // As docs/client.md says, on a fresh clone: no dist/ yet, the script makes the tarball there.
    clone = freshCopy();
    expect(existsSync(join(clone, "dist"))).toBe(false);
    npm(["run", "pack:client"], clone);
    tarball = join(clone, "dist", readdirSync(join(clone, "dist"))[0]);
    app = mkdtempSync(join(tmpdir(), "authd-client-app-"));
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module" }));
    npm(["install", "--offline", tarball], app);
    daemon = await startAuthd({ env: { AUTH_TRUSTED_ORIGINS: "http://app.test" } });
  }, 180_000);
  afterAll(async () => {
    await daemon?.close();
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  it("packs the built modules, their declarations and the README, and nothing of the daemon", () => {
    expect(tarball).toMatch(/authd-client-0\.1\.0\.tgz$/);
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n");
    expect(files).toEqual(
      expect.arrayContaining([
        "package/package.json",
        "package/README.md",
        "package/dist/index.js",
        "package/dist/index.d.ts",
        "package/dist/react.js",
        "package/dist/react.d.ts",
      ]),
    );
    expect(
      files.filter((f) => !f.startsWith("package/dist/") && !/^package\/(package\.json|README\.md)$/.test(f)),
    ).toEqual([]);
    expect(files.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toBe(false);
  });

  it("installs into an empty project without pulling anything else (React is an optional peer)", () => {
    expect(readdirSync(join(app, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["@authd"]);
  });

  it("is imported by name from the scratch project and signs up, reads the session and signs out", async () => {
    const script = `
      import { createAuthClient } from "@authd/client";
      const jar = new Map();
      const customFetchImpl = async (input, init = {}) => {
        const headers = new Headers(init.headers);
        headers.set("origin", "http://app.test");
        if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => k + "=" + v).join("; "));
        const res = await fetch(input, { ...init, headers });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
          if (value) jar.set(name, value); else jar.delete(name);
        }
        return res;
      };
      const auth = createAuthClient({ baseURL: process.env.AUTHD_URL, fetchOptions: { customFetchImpl } });
      const up = await auth.signUp.email({ name: "Ada", email: "ada@example.com", password: "correct-horse-battery" });
      const session = await auth.getSession();
      const wrong = await auth.signIn.email({ email: "ada@example.com", password: "wrong-password-1" });
      await auth.signOut();
      const after = await auth.getSession();
      console.log(JSON.stringify({ up: up.data?.user?.email, session: session.data?.user?.name, wrong: wrong.error?.code, after: after.data }));
    `;
    // Asynchronously: the daemon answers from this very process, so a blocking spawn would starve it.
    const run = await promisify(execFile)("node", ["--input-type=module", "-e", script], {
      cwd: app,
      env: { ...process.env, AUTHD_URL: daemon.url },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      up: "ada@example.com",
      session: "Ada",
      wrong: "INVALID_EMAIL_OR_PASSWORD",
      after: null,
    });
  });

  it("resolves every client import the documents show, in the app that installed the package", async () => {
    const documented = ["docs/client.md", "clients/js/README.md"].flatMap((document) =>
      [...readFileSync(join(ROOT, document), "utf8").matchAll(/\bfrom "((?:@authd\/|authd\/)[^"]*)"/g)].map(
        (match) => match[1],
      ),
    );
    const specifiers = [...new Set(documented)];
    expect(specifiers).toEqual(expect.arrayContaining(["@authd/client", "@authd/client/react"]));
    const script = `for (const s of JSON.parse(process.env.SPECIFIERS)) console.log(s + " " + import.meta.resolve(s));`;
    const run = await promisify(execFile)("node", ["--input-type=module", "-e", script], {
      cwd: app,
      env: { ...process.env, SPECIFIERS: JSON.stringify(specifiers) },
      encoding: "utf8",
    });
    const resolved = run.stdout.trim().split("\n");
    expect(resolved).toHaveLength(specifiers.length);
    for (const line of resolved) expect(line).toMatch(/ file:\/\/.*\/node_modules\/@authd\/client\/dist\/\w+\.js$/);
  });

  it("type-checks an app against the installed declarations", () => {
    writeFileSync(
      join(app, "app.ts"),
      `import { createAuthClient } from "@authd/client";
       const auth = createAuthClient({ baseURL: "http://localhost:3000" });
       export async function name(): Promise<string | undefined> {
         const { data } = await auth.getSession();
         return data?.user.name;
       }
       export async function wrong(): Promise<number | undefined> {
         // @ts-expect-error: the declarations say a user's name is a string
         return (await auth.getSession()).data?.user.name;
       }`,
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom"],
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["app.ts"],
      }),
    );
    const tsc = spawnSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", app], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
