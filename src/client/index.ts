import type { AuthClient } from "./client-types.ts";
import { type AuthClientOptions, createClientCore } from "./core.ts";

// authd/client: the framework-free client. Runs in browsers and in Node/Bun/Deno (no platform imports).

export function createAuthClient(options: AuthClientOptions = {}): AuthClient {
  return createClientCore(options) as AuthClient;
}

export type { AuthClient, Endpoint, RouteTree } from "./client-types.ts";
export type { AuthClientOptions } from "./core.ts";
export type {
  AuthClientError,
  AuthResult,
  CallOptions,
  ErrorContext,
  FetchHooks,
  FetchOptions,
  RequestContext,
  SuccessContext,
} from "./fetch.ts";
export type { RetryOption } from "./retry.ts";
export type { AuthRoutePath, AuthRoutes } from "./routes.ts";
export type { SessionState, SessionStore } from "./session.ts";
export type { ReadableStore } from "./store.ts";
export type { BackupCodes, TwoFactorRedirect, TwoFactorVerification } from "./two-factor.ts";
export { isTwoFactorRedirect } from "./two-factor.ts";
export type * from "./types.ts";
