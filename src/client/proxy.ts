import type { AuthResult, CallOptions, ClientFetch } from "./fetch.ts";
import { methodFor } from "./routes.ts";

// client.signIn.email(input) → POST /sign-in/email. Property names become path segments (camelCase →
// kebab-case); calling the chain makes the request.

export interface CallInput {
  query?: Record<string, unknown>;
  fetchOptions?: CallOptions;
  /** Request headers, e.g. a server forwarding the browser's cookie: `getSession({ headers })`. */
  headers?: Record<string, string> | Headers;
  [field: string]: unknown;
}

/** The options' headers, then fetchOptions', then the input's own: the nearest to the call wins. */
function mergeHeaders(...sources: Array<Record<string, string> | Headers | undefined>): Headers | undefined {
  if (sources.every((source) => source === undefined)) return undefined;
  const merged = new Headers();
  for (const source of sources) for (const [name, value] of new Headers(source)) merged.set(name, value);
  return merged;
}

export function toRoutePath(segments: string[]): string {
  return `/${segments.map((segment) => segment.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)).join("/")}`;
}

export interface PathCallHooks {
  /** After a successful call, with the route path and the answer. */
  afterSuccess(path: string, data: unknown): void;
}

export function callPath(
  clientFetch: ClientFetch,
  hooks: PathCallHooks,
  path: string,
  input: CallInput = {},
  options: CallOptions = {},
): Promise<AuthResult<unknown>> {
  const { query, fetchOptions, headers, ...fields } = input ?? {};
  // Headers given beside the fields are headers, never a body field or a query parameter named "headers".
  const merged: CallOptions = {
    ...options,
    ...fetchOptions,
    headers: mergeHeaders(options.headers, fetchOptions?.headers, headers),
  };
  const body = { ...fields, ...merged.body };
  const method = methodFor(path, body, merged.method);
  return clientFetch(path, {
    ...merged,
    method,
    body: method === "GET" ? undefined : body,
    // A GET has no body: fields given at the top level are sent as the query.
    query: query ?? merged.query ?? (method === "GET" && Object.keys(body).length > 0 ? body : undefined),
    onSuccess: async (context) => {
      await merged.onSuccess?.(context);
      hooks.afterSuccess(path, context.data);
    },
  });
}

/**
 * A proxy whose every property is a deeper path and whose call is a request. Own properties of
 * `members` ($fetch, useSession, …) win at the top level. "then" is never a path, so the client is not
 * mistaken for a promise when returned from an async function.
 */
export function createPathProxy(
  members: Record<string, unknown>,
  call: (path: string, input?: CallInput, options?: CallOptions) => unknown,
): unknown {
  const make = (segments: string[]): unknown =>
    new Proxy(function pathCall() {}, {
      get(_target, property) {
        if (typeof property === "symbol" || property === "then") return undefined;
        if (segments.length === 0 && Object.hasOwn(members, property)) return members[property];
        if (property.startsWith("$")) return undefined;
        return make([...segments, property]);
      },
      apply(_target, _self, args: [CallInput?, CallOptions?]) {
        return call(toRoutePath(segments), args[0], args[1]);
      },
    });
  return make([]);
}
