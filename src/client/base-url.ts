// Where calls go: the base URL, plus the base path (/api/auth by default) unless the URL already has a path.

export const DEFAULT_BASE_PATH = "/api/auth";

export function resolveApiURL(baseURL: string | undefined, basePath: string | undefined): string {
  const location = (globalThis as { window?: { location?: { origin: string } } }).window?.location;
  const base = baseURL ?? location?.origin;
  if (!base) throw new Error("authd client: baseURL is required outside a browser");
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`authd client: invalid baseURL ${JSON.stringify(base)}`);
  }
  const origin = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  if (basePath !== undefined) return `${url.origin}${basePath.startsWith("/") ? "" : "/"}${basePath.replace(/\/+$/, "")}`;
  return url.pathname === "/" ? `${url.origin}${DEFAULT_BASE_PATH}` : origin;
}
