// Building the URLs a route redirects the browser to (verification and reset links' callbacks).

/** `url` with `name=value` appended, keeping a relative URL relative (the callback decides where it lands). */
export function withQueryParam(url: string, name: string, value: string): string {
  const hashAt = url.indexOf("#");
  const [path, hash] = hashAt === -1 ? [url, ""] : [url.slice(0, hashAt), url.slice(hashAt)];
  const separator = path.includes("?") ? (path.endsWith("?") || path.endsWith("&") ? "" : "&") : "?";
  return `${path}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}${hash}`;
}
