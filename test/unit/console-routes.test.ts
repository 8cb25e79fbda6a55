import { describe, expect, it } from "vitest";
import { CONSOLE_HANDLERS } from "../../src/http/console/handlers.ts";
import { CONSOLE_ROUTES } from "../../src/http/console/routes.ts";
import { adminStatements } from "../../src/services/admin.ts";

// The console's route table: every handler it names exists, every permission it names is one the admin
// statements know, every form shares an API route's rate limit, and no path is mounted twice.

describe("the console's routes", () => {
  it("name handlers that exist and permissions the admin statements know", () => {
    const known: Record<string, readonly string[]> = adminStatements;
    for (const route of CONSOLE_ROUTES) {
      for (const name of [route.get, route.post]) if (name) expect(Object.keys(CONSOLE_HANDLERS)).toContain(name);
      const asked = Object.entries(route.permission);
      expect(asked.length, route.path).toBeGreaterThan(0);
      for (const [resource, actions] of asked)
        for (const action of Array.isArray(actions) ? actions : [])
          expect(known[resource], route.path).toContain(action);
    }
  });

  it("give every form the rate limit of an API route, and mount each path once", () => {
    for (const route of CONSOLE_ROUTES) if (route.post) expect(route.limitAs, route.path).toMatch(/^\//);
    const paths = CONSOLE_ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
