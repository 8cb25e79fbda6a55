import type { AuthContext } from "../context.ts";
import { readJSONObject } from "../db/json-column.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";

// The extra user fields an operator configures (userAdditionalFields): stored together as one JSON
// column, validated on the way in.

/** The stored extra fields of a user ({} when none). */
export function parseAdditional(row: Pick<UserRow, "additionalFields">): Record<string, unknown> {
  return readJSONObject(row.additionalFields) ?? {};
}

/**
 * Validate the configured extra user fields in an input object. On create, required fields must be
 * present and defaults apply; fields with input false are refused from clients.
 */
export function pickAdditionalFields(
  ctx: AuthContext,
  input: Record<string, unknown>,
  mode: "create" | "update",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, definition] of Object.entries(ctx.config.userAdditionalFields)) {
    const value = input[field];
    if (value === undefined || value === null) {
      if (mode === "create" && definition.required && definition.defaultValue === undefined) {
        throw new AuthError("VALIDATION_ERROR", { message: `${field} is required` });
      }
      if (mode === "create" && definition.defaultValue !== undefined) out[field] = definition.defaultValue;
      continue;
    }
    if (!definition.input) throw new AuthError("VALIDATION_ERROR", { message: `${field} is not allowed` });
    if (typeof value !== definition.type)
      throw new AuthError("VALIDATION_ERROR", { message: `${field} must be a ${definition.type}` });
    out[field] = value;
  }
  return out;
}
