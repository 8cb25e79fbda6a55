import type { FormProblem } from "./state.ts";

// The second-factor page's refusals, for the server's page and the hydrated one alike: a wrong code belongs
// to the code field (only one method's form is on the page at a time, so its field is always "code"), and
// a locked second factor reads as the other "too many attempts" answers do.

const CODE_FIELD_PROBLEMS: ReadonlySet<string> = new Set([
  "INVALID_CODE",
  "INVALID_BACKUP_CODE",
  "OTP_HAS_EXPIRED",
  "TOO_MANY_ATTEMPTS_PLEASE_REQUEST_A_NEW_CODE",
]);

export function twoFactorProblem(code: string, status?: number): FormProblem {
  if (status === 429) return { code: "TOO_MANY_REQUESTS" };
  return CODE_FIELD_PROBLEMS.has(code) ? { code, field: "code" } : { code };
}
