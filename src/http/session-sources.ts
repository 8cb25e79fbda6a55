import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import type { ResolvedSession } from "./session.ts";

/**
 * Other ways than the session cookie to prove who the caller is (an API key header). Returns null
 * when the request carries none. The API-key capability fills this in.
 */
export async function resolveApiKeySession(_c: Context, _ctx: AuthContext): Promise<ResolvedSession | null> {
  return null;
}
