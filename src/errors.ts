// The refusal every service and route throws: an AuthError names a catalogue entry (src/error-catalogue.ts)
// by key and never chooses its own status or code. The catalogue is re-exported here so that the one
// import path for errors stays src/errors.ts.

import { ERRORS, type ErrorKey, type ErrorStatus } from "./error-catalogue.ts";

export { codeFromMessage, ERRORS, type ErrorKey, type ErrorStatus } from "./error-catalogue.ts";

export interface AuthErrorOptions {
  /** A message of the same family (validation details, a configured ban message); never a different refusal. */
  message?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

/** A refusal with a catalogue code. Thrown by services and routes, rendered once by the app's onError. */
export class AuthError extends Error {
  readonly key: ErrorKey;
  readonly code: string;
  readonly status: ErrorStatus;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(key: ErrorKey, options: AuthErrorOptions = {}) {
    const entry = ERRORS[key];
    super(options.message ?? entry.message, { cause: options.cause });
    this.name = "AuthError";
    this.key = key;
    this.status = entry.status;
    this.code = entry.code;
    this.details = options.details;
    this.headers = options.headers;
  }

  toBody(): Record<string, unknown> {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}
