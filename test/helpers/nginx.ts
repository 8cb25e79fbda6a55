import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// A real nginx (Debian's package, installed by test/setup.sh) running the auth_request block of
// docs/proxies.md, taken from the document itself, in front of a test's authd and upstream.

/** The nginx block of docs/proxies.md, pointed at this test's authd, upstream and port. */
export function documentedServerBlock(authd: string, upstream: string, port: number): string {
  const doc = readFileSync(resolve(import.meta.dirname, "../../docs/proxies.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/proxies.md has no nginx block");
  return block
    .replaceAll("127.0.0.1:3000", authd)
    .replaceAll("127.0.0.1:8080", upstream)
    .replace("listen 80;", `listen 127.0.0.1:${port};`);
}

async function waitForPort(port: number, nginx: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited: ${log()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
    });
    if (open) return;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  throw new Error(`nginx did not listen: ${log()}`);
}

function nginxBinary(): string {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) {
    try {
      execFileSync(candidate, ["-v"], { stdio: "ignore" });
      return candidate;
    } catch {}
  }
  throw new Error("nginx is not installed: run bash test/setup.sh (installs Debian's nginx package)");
}

export interface RunningNginx {
  stop(): Promise<void>;
}

/** Run nginx with `server` (a server block listening on 127.0.0.1:port) until stop(). */
export async function startNginx(server: string, port: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), "authd-nginx-"));
  for (const sub of ["client", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
error_log ${dir}/error.log info;
pid ${dir}/nginx.pid;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${server}
}
`,
  );
  const nginx = spawn(nginxBinary(), ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  nginx.stderr?.on("data", (chunk) => (stderr += chunk));
  await waitForPort(port, nginx, () => stderr);
  return {
    async stop() {
      if (nginx.exitCode === null) {
        const exited = new Promise((done) => nginx.once("exit", done));
        nginx.kill("SIGQUIT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
