import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { hasControlCharacters } from "../../services/control-characters.ts";
import { assertTrustedOrigin } from "../request.ts";
import { isFormTokenValid } from "./csrf.ts";

// Every form post to a page passes here first: a form body of plain fields (no files, no control
// characters, bounded sizes), a browser origin that is trusted (or none, as from a client that sends
// none), and this browser's anti-forgery token. The flow runs only after all three.

const MAX_FIELD_LENGTH = 4096;
/** Fields taken as typed, like the API's passwords: they are only hashed, never stored or shown. */
const VERBATIM_FIELDS: ReadonlySet<string> = new Set(["password", "currentPassword", "newPassword"]);

const FormFields = z
  .record(z.string(), z.string().max(MAX_FIELD_LENGTH))
  .refine((fields) =>
    Object.entries(fields).every(([name, value]) => VERBATIM_FIELDS.has(name) || !hasControlCharacters(value)),
  );

export type FormFields = z.infer<typeof FormFields>;

export type GuardResult = { ok: true; fields: FormFields } | { ok: false; problem: "CSRF" | "ORIGIN" | "INVALID" };

export async function guardForm(c: Context, ctx: AuthContext): Promise<GuardResult> {
  try {
    assertTrustedOrigin(c, ctx, true);
  } catch (error) {
    if (error instanceof AuthError) return { ok: false, problem: "ORIGIN" };
    throw error;
  }
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return { ok: false, problem: "INVALID" };
  const parsed = FormFields.safeParse(await c.req.parseBody());
  if (!parsed.success) return { ok: false, problem: "INVALID" };
  if (!isFormTokenValid(c, ctx, parsed.data.csrf)) return { ok: false, problem: "CSRF" };
  return { ok: true, fields: parsed.data };
}
