import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 27: the HTTP layer holds no flow. Routes do not import other routes (what two share is a service or
// src/http plumbing), and security events are recorded by the flows in the services, not by HTTP code.

const ROOT = resolve(import.meta.dirname, "../..");
const HTTP = join(ROOT, "src/http");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

const importsOf = (path: string): string[] =>
  [...readFileSync(path, "utf8").matchAll(/from "(\.[^"]+)"/g)].map((match) => resolve(join(path, ".."), match[1]));

describe("the HTTP layer", () => {
  it("has no route importing another route (only the route list, routes/index.ts, gathers them)", () => {
    const routes = join(HTTP, "routes");
    const isRouteModule = (path: string) =>
      path.startsWith(routes) && !/\/(index|schemas|shared)\.ts$/.test(path) && !path.endsWith("/admin/shared.ts");
    const crossings = files(routes)
      .filter((path) => !path.endsWith("index.ts"))
      .flatMap((path) =>
        importsOf(path)
          .filter(isRouteModule)
          .map((target) => `${relative(ROOT, path)} → ${relative(ROOT, target)}`),
      );
    expect(crossings).toEqual([]);
  });

  it("records no security event itself, but the request pipeline's origin_refused", () => {
    const recording = /\brecord(SecurityEvent|SignIn|SignInFailure|MailboxProof)\b/;
    const recorders = files(HTTP)
      .filter((path) => recording.test(readFileSync(path, "utf8")))
      .map((path) => relative(ROOT, path));
    expect(recorders).toEqual(["src/http/request.ts"]);
  });
});
