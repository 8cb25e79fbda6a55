import type { AuthContext } from "../../context.ts";
import { isTrustedURL } from "../request.ts";

// Where a page sends the browser once its flow is done. `?redirect=` is honoured only when it names a
// trusted place: an http(s) URL of a trusted origin (AUTH_TRUSTED_ORIGINS, AUTH_APP_URL, the daemon itself),
// or a plain path of this origin. It is parsed once, and the parsed form is what the browser is sent to,
// so what was checked is what is followed. Anything else is dropped (the flow ends at the app's URL).

const MAX_LENGTH = 2048;

export function trustedReturnAddress(ctx: AuthContext, raw: string | undefined | null): string | null {
  if (!raw || raw.length > MAX_LENGTH) return null;
  if (raw.startsWith("/")) return isTrustedURL(ctx, raw) ? raw : null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password) return null;
  return isTrustedURL(ctx, url.href, false) ? url.href : null;
}
