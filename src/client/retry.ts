// Retries of failed fetches (auth-service.md §7, §9): linear at 1000 ms unless told otherwise, or
// exponential with a cap.

export type RetryOption =
  /** Number of retries, 1000 ms apart. */
  | number
  | { type: "linear"; attempts: number; delay?: number; shouldRetry?: (response: Response | null) => boolean }
  | {
      type: "exponential";
      attempts: number;
      baseDelay?: number;
      maxDelay: number;
      shouldRetry?: (response: Response | null) => boolean;
    };

export const DEFAULT_RETRY_DELAY_MS = 1000;

export function retryAttempts(option: RetryOption | undefined): number {
  if (option === undefined) return 0;
  return Math.max(0, typeof option === "number" ? option : option.attempts);
}

/** How long to wait before retry number `attempt` (0 for the first retry). */
export function retryDelay(option: RetryOption, attempt: number): number {
  if (typeof option === "number" || option.type === "linear") {
    return typeof option === "number" ? DEFAULT_RETRY_DELAY_MS : (option.delay ?? DEFAULT_RETRY_DELAY_MS);
  }
  return Math.min(option.maxDelay, (option.baseDelay ?? DEFAULT_RETRY_DELAY_MS) * 2 ** attempt);
}

/**
 * By default only failures that may pass on their own are retried: no answer at all (network), a
 * timeout, rate limiting and server errors. A 4xx answer would come back the same.
 */
export function isRetryable(option: RetryOption, response: Response | null): boolean {
  if (typeof option !== "number" && option.shouldRetry) return option.shouldRetry(response);
  if (response === null) return true;
  return response.status === 408 || response.status === 429 || response.status >= 500;
}

/** A 429 names the seconds to wait in X-Retry-After; waiting less would only be refused again. */
export function serverRetryAfterMs(response: Response | null): number {
  const header = response?.headers.get("x-retry-after") ?? response?.headers.get("retry-after");
  const seconds = header ? Number(header) : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}
