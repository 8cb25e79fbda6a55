import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_PATHS_FILE, routePathsModule } from "../../scripts/route-paths.ts";
import { ROUTE_GROUPS, routeKey } from "../../src/http/routes/index.ts";
import { ROUTE_PATHS } from "../../src/http/routes/route-paths.generated.ts";

// The app mounts each route group's paths from src/http/routes/route-paths.generated.ts and loads the
// group's modules on its first request: the file must say exactly what the groups hold, in their order.

const ROOT = resolve(import.meta.dirname, "../..");

describe("route paths", () => {
  it("keeps src/http/routes/route-paths.generated.ts current (run `npm run route-errors` when this fails)", async () => {
    const current = readFileSync(join(ROOT, ROUTE_PATHS_FILE), "utf8");
    if (current !== (await routePathsModule()))
      expect.fail(`${ROUTE_PATHS_FILE} is stale: run \`npm run route-errors\``);
  });

  it("lists every group once, and no route twice among the groups that can be mounted together", async () => {
    expect(Object.keys(ROUTE_PATHS)).toEqual(ROUTE_GROUPS.map((group) => group.name));
    // The two /jwks groups are never on together (oidc-jwks only when the session JWTs are off).
    const keys = (await Promise.all(ROUTE_GROUPS.filter((g) => g.name !== "oidc-jwks").map((g) => g.load())))
      .flat()
      .map(routeKey);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });
});
