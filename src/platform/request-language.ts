import { AsyncLocalStorage } from "node:async_hooks";

// The Accept-Language of the request being answered, for work it causes that has no request of its own to
// read: a mail sent from deep in a flow (or from the background work the request started) is written in the
// language the person asked in, without every service between the route and the mail passing a header on.

const current = new AsyncLocalStorage<string>();

/** Run `work` (and everything it starts) as part of a request that asked for `acceptLanguage`. */
export function withRequestLanguage<T>(acceptLanguage: string | undefined, work: () => T): T {
  // A request that names no language (most API clients) costs nothing here.
  return acceptLanguage ? current.run(acceptLanguage, work) : work();
}

/** The Accept-Language of the request this code runs for, if it named one. */
export function requestLanguage(): string | undefined {
  return current.getStore();
}
