import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyRow } from "../../src/db/schema.ts";
import { decideUsage, decideUses } from "../../src/services/api-keys/decisions.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";

// decideUses (a block of uses at one instant, leases.ts) must agree with decideUsage applied use by use: the
// same uses granted, the same counters after them, the same refusal for the first one that does not fit.

const DAY_MS = 86_400_000;
const NOW = 1_800_000_000_000;

const row = (fields: Partial<ApiKeyRow>): ApiKeyRow =>
  ({
    id: "key",
    createdAt: NOW - 10 * DAY_MS,
    updatedAt: NOW - 10 * DAY_MS,
    requestCount: 0,
    remaining: null,
    lastRequest: null,
    lastRefillAt: null,
    refillAmount: null,
    refillInterval: null,
    rateLimitEnabled: true,
    rateLimitTimeWindow: null,
    rateLimitMax: null,
    usageVersion: 0,
    ...fields,
  }) as ApiKeyRow;

const cases: Record<string, Partial<ApiKeyRow>> = {
  "remaining, no window": { remaining: 7, rateLimitEnabled: false },
  "remaining 0 with a refill due": { remaining: 0, refillAmount: 5, refillInterval: 1, rateLimitEnabled: false },
  "remaining 0 without refill": { remaining: 0, rateLimitEnabled: false },
  "a window part used": { rateLimitTimeWindow: 60_000, rateLimitMax: 9, requestCount: 4, lastRequest: NOW - 1000 },
  "a window full": { rateLimitTimeWindow: 60_000, rateLimitMax: 9, requestCount: 9, lastRequest: NOW - 1000 },
  "a window passed": { rateLimitTimeWindow: 60_000, rateLimitMax: 9, requestCount: 9, lastRequest: NOW - 61_000 },
  "remaining and a window": { remaining: 3, rateLimitTimeWindow: 60_000, rateLimitMax: 9, requestCount: 1 },
};

describe("a block of API key uses decided at once", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  for (const [name, fields] of Object.entries(cases))
    for (const wanted of [1, 2, 5, 20])
      it(`${name}, ${wanted} wanted: as decideUsage use by use`, () => {
        let counters = row(fields);
        let granted = 0;
        let refusal: unknown;
        for (let use = 0; use < wanted; use++) {
          const decision = decideUsage(t.ctx, counters, NOW);
          if (decision.kind === "refuse") {
            refusal = decision;
            break;
          }
          counters = { ...counters, ...decision.next };
          granted += 1;
        }
        const block = decideUses(t.ctx, row(fields), NOW, wanted);
        if (granted === 0) expect(block).toEqual(refusal);
        else {
          expect(block.kind).toBe("use");
          if (block.kind !== "use") return;
          expect(block.granted).toBe(granted);
          const after = { ...row(fields), ...block.next };
          for (const column of ["requestCount", "remaining", "lastRequest", "lastRefillAt"] as const)
            expect(Number(after[column])).toBe(Number(counters[column]));
        }
      });
});
