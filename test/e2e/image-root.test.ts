import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { freePort } from "../helpers/daemon.ts";
import { readRuntimeStage } from "../helpers/dockerfile.ts";

// The container image without a container engine: the compiled binary alone in an otherwise empty root
// (its shared libraries, /etc/passwd, /tmp, and the volume directory owned as the Dockerfile owns it),
// run under the Dockerfile's USER with its ENV, ENTRYPOINT + CMD and HEALTHCHECK, in a mount namespace
// with chroot. What this cannot show: that `docker build` succeeds, the distroless base's own files, and
// how an engine mounts a named volume; docs/operations.md says so.

const ROOT = resolve(import.meta.dirname, "../..");
const stage = readRuntimeStage(join(ROOT, "Dockerfile"));
const [uid, gid] = stage.user.split(":").map(Number);

function buildRoot(binary: string): string {
  const root = mkdtempSync(join(tmpdir(), "authd-image-"));
  chmodSync(root, 0o755);
  const target = join(root, stage.entrypoint[0]);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(binary, target);
  chmodSync(target, 0o755);
  // Only the libraries the binary itself links (distroless/cc ships glibc and libgcc, nothing else we use).
  const ldd = spawnSync("ldd", [binary], { encoding: "utf8" }).stdout;
  for (const lib of ldd.matchAll(/(\/\S+\.so[.\d]*)/g)) {
    mkdirSync(dirname(join(root, lib[1])), { recursive: true });
    copyFileSync(lib[1], join(root, lib[1]));
  }
  mkdirSync(join(root, "etc"));
  writeFileSync(
    join(root, "etc/passwd"),
    `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${uid}:${gid}::/home/nonroot:/sbin/nologin\n`,
  );
  writeFileSync(join(root, "etc/group"), `root:x:0:\nnonroot:x:${gid}:\n`);
  for (const dir of ["tmp", "proc", "dev"]) mkdirSync(join(root, dir));
  chmodSync(join(root, "tmp"), 0o1777);
  // The build stage's `chown 65532:65532 /out/data` copied with --chown: the volume starts out as the user's.
  const [dataUid, dataGid] = stage.dataOwner.split(":").map(Number);
  mkdirSync(join(root, stage.volume));
  chownSync(join(root, stage.volume), dataUid, dataGid);
  chmodSync(join(root, stage.volume), 0o700);
  return root;
}

/** Run argv inside the root as the image's user, with /proc and /dev bound in a private mount namespace. */
function inImage(root: string, argv: string[], env: Record<string, string>): ChildProcess {
  const script = `mount --bind /proc "$R/proc" && mount --bind /dev "$R/dev" && cd "$R${stage.workdir}" && exec chroot --userspec=${uid}:${gid} "$R" "$@"`;
  return spawn("unshare", ["-m", "--propagation", "private", "sh", "-c", script, "sh", ...argv], {
    env: { R: root, PATH: process.env.PATH ?? "", ...stage.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function finished(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  return new Promise((done) => child.once("exit", (code) => done({ code, output })));
}

describe("the image's runtime stage, run without an engine", () => {
  let root: string;
  let daemon: ChildProcess;
  let exited: Promise<{ code: number | null; output: string }>;
  let port: number;
  beforeAll(async () => {
    root = buildRoot(buildBinary());
    port = await freePort();
    daemon = inImage(root, [...stage.entrypoint, ...stage.cmd], {
      AUTH_PORT: String(port),
      AUTH_SECRET: "eqFUXCTEYjForjAlyplrMu7W7mO9SebnWGYt8x_BJvrqo48RfYLj9YXla0geCFoa",
    });
    exited = finished(daemon);
    for (let i = 0; i < 200; i++) {
      if (daemon.exitCode !== null) throw new Error(`authd exited: ${(await exited).output}`);
      if (
        await fetch(`http://127.0.0.1:${port}/api/auth/ok`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("authd did not answer in the image root");
  }, 120_000);
  afterAll(() => {
    if (daemon && daemon.exitCode === null) daemon.kill("SIGKILL");
  });

  it("runs as the non-root user named by USER, not as root", () => {
    expect(stage.user).toBe("65532:65532");
    expect(uid).not.toBe(0);
    const status = spawnSync("cat", [`/proc/${daemon.pid}/status`], { encoding: "utf8" }).stdout;
    // The unshare/sh wrapper execs chroot, which execs authd: the pid is authd's own.
    expect(status).toMatch(new RegExp(`^Uid:\\s+${uid}\\s`, "m"));
  });

  it("keeps its SQLite database in the volume, owned by that user", async () => {
    const signUp = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Ada", email: "ada@example.com", password: "correct-horse-battery" }),
    });
    expect(signUp.status).toBe(200);
    expect(stage.env.AUTH_DATABASE_URL).toBe(`sqlite://${stage.volume}/authd.db`);
    const db = statSync(join(root, stage.volume, "authd.db"));
    expect(db.uid).toBe(uid);
    expect(statSync(join(root, stage.volume)).uid).toBe(uid);
  });

  it("passes the HEALTHCHECK command run inside the same root", async () => {
    const check = await finished(inImage(root, stage.healthcheck, { AUTH_PORT: String(port) }));
    expect(check.output).toContain("ok");
    expect(check.code).toBe(0);
  });

  it("fails the HEALTHCHECK when nothing answers, and stops with exit 0 on SIGTERM", async () => {
    daemon.kill("SIGTERM");
    expect((await exited).code).toBe(0);
    const check = await finished(inImage(root, stage.healthcheck, { AUTH_PORT: String(port) }));
    expect(check.code).toBe(1);
    expect(check.output).toContain("unhealthy");
  });
});
