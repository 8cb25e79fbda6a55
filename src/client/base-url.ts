// Where calls go: a base URL that already has a path is used as it is; otherwise the base path
// (/api/auth by default) is appended to its origin.

export const DEFAULT_BASE_PATH = "/api/auth";

export function resolveApiURL(baseURL: string | undefined, basePath: string = DEFAULT_BASE_PATH): string {
  const location = (globalThis as { window?: { location?: { origin: string } } }).window?.location;
  const base = baseURL ?? location?.origin;
  if (!base) throw new Error("authd client: baseURL is required outside a browser");
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`authd client: invalid baseURL ${JSON.stringify(base)}`);
  }
  if (url.pathname !== "/") return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  return `${url.origin}${basePath.startsWith("/") ? "" : "/"}${basePath.replace(/\/+$/, "")}`;
}
