import type * as z from "zod";
import { type Config, configSchema } from "./schema.ts";

// A part of loadConfig (load.ts): every problem reported at once.

/**
 * The configuration with the values the schema refused left out (defaults in their place), so the checks
 * across fields still run: the operator gets every problem in one go, not one more after each fix. Null
 * when it still does not parse.
 */
export function withoutRefusedValues(tree: Record<string, unknown>, issues: z.core.$ZodIssue[]): Config | null {
  const pruned = structuredClone(tree);
  for (const issue of issues) {
    const path = issue.path.map(String);
    const leaves = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...path, key]) : [path];
    for (const leaf of leaves) {
      const parent = leaf
        .slice(0, -1)
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], pruned);
      if (leaf.length > 0 && typeof parent === "object" && parent !== null)
        delete (parent as Record<string, unknown>)[leaf.at(-1) ?? ""];
    }
  }
  const again = configSchema().safeParse(pruned);
  return again.success ? again.data : null;
}
