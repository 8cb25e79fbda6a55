import type { SignalStore } from "./core.ts";
import type { AuthResult, CallOptions, ClientFetch } from "./fetch.ts";
import type { AuthRoutes } from "./routes.ts";
import type { SessionStore } from "./session.ts";

// The client's type, derived from the route map: "/organization/accept-invitation" becomes
// client.organization.acceptInvitation(input, options).

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

type CallExtras = {
  fetchOptions?: CallOptions;
  /** Request headers, e.g. a server forwarding the browser's cookie: `getSession({ headers })`. */
  headers?: Record<string, string> | Headers;
};

type RouteInput<R> = R extends { method: "GET"; input: infer Query }
  ? // biome-ignore lint/complexity/noBannedTypes: `{} extends X` asks whether every field of X is optional.
    ({} extends Query ? { query?: Query } : { query: Query }) & CallExtras
  : R extends { input: infer Body }
    ? Body & CallExtras & { query?: Record<string, unknown> }
    : never;

type RouteOutput<R> = R extends { output: infer Output } ? Output : never;

export type Endpoint<R> =
  // biome-ignore lint/complexity/noBannedTypes: `{} extends X` asks whether every field of X is optional.
  {} extends RouteInput<R>
    ? (input?: RouteInput<R>, options?: CallOptions) => Promise<AuthResult<RouteOutput<R>>>
    : (input: RouteInput<R>, options?: CallOptions) => Promise<AuthResult<RouteOutput<R>>>;

type Nest<Path extends string, Leaf> = Path extends `${infer Head}/${infer Rest}`
  ? { [K in CamelCase<Head>]: Nest<Rest, Leaf> }
  : { [K in CamelCase<Path>]: Leaf };

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

export type RouteTree = UnionToIntersection<
  {
    [P in keyof AuthRoutes]: P extends `/${infer Rest}` ? Nest<Rest, Endpoint<AuthRoutes[P]>> : never;
  }[keyof AuthRoutes]
>;

export interface ClientMembers {
  /** A raw call for any path under the base path (routes added after this client was written). */
  $fetch: ClientFetch;
  /** The session store behind useSession. */
  $session: SessionStore;
  /** Better Auth's signal store: `$store.notify("$sessionSignal")` makes the session store refetch. */
  $store: SignalStore;
}

/** The framework-free client: `useSession` is the session store (subscribe / get / refetch). */
export type AuthClient = RouteTree & ClientMembers & { useSession: SessionStore };
