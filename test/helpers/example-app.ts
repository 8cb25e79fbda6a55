import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";
import type { Page } from "playwright-core";

// examples/react-app built with vite against the built client (dist/client layout) and served from its
// own origin, for the browser tests.

export const ROOT = new URL("../..", import.meta.url).pathname;
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
};

/** Serve a built site on 127.0.0.1; `origin` names it by `hostname` (localhost for WebAuthn's secure context). */
export function serveStatic(dir: string, hostname = "127.0.0.1"): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    let file = join(dir, path === "/" ? "index.html" : path);
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      file = join(dir, "index.html");
      body = readFileSync(file);
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, origin: `http://${hostname}:${(server.address() as { port: number }).port}` }),
    ),
  );
}

export function run(command: string, args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(command, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
}

/** Build the client into `work`/client and the example app into `work`/site, calling authd at `authdURL`. */
export function buildExampleApp(work: string, authdURL: string): void {
  run(process.execPath, ["scripts/build-client.ts", "--outdir", join(work, "client")]);
  run(
    "node",
    ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn", "--config", "examples/react-app/vite.config.ts"],
    { AUTHD_CLIENT_DIR: join(work, "client"), AUTHD_EXAMPLE_OUT_DIR: join(work, "site"), VITE_AUTHD_URL: authdURL },
  );
}

/** Console errors (and failed requests) of a page, collected for an `expect(problems).toEqual([])` at the end. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("requestfailed", (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
  return problems;
}

/** Open the example app signed out and sign up through its form; resolves once it shows the session. */
export async function signUpInExampleApp(page: Page, origin: string, user: { name: string; email: string }) {
  await page.goto(origin);
  await page.getByText("Signed out").waitFor();
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByTestId("user-email").waitFor();
}
