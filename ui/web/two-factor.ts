import { type FormProblem, RATE_LIMITED_CODE } from "./state.ts";

// The second-factor page's refusals, for the server's page and the hydrated one alike. A wrong code is the
// form's problem, shown in its announced region (role="alert"), so a screen reader hears it with or without
// JavaScript; a locked second factor reads as the other "too many attempts" answers do.

export function twoFactorProblem(code: string, status?: number): FormProblem {
  return status === 429 ? { code: RATE_LIMITED_CODE } : { code };
}

/** Fields of the account page's second-factor forms that a refusal concerns; others go above the form. */
const ACCOUNT_FIELDS: Readonly<Record<string, string>> = { INVALID_PASSWORD: "password", INVALID_CODE: "code" };

/** A refusal of the account page's second-factor forms (server and hydrated page alike), tied to its field. */
export function accountTwoFactorProblem(code: string, status?: number): FormProblem {
  const problem = twoFactorProblem(code, status);
  const field = ACCOUNT_FIELDS[problem.code];
  return field ? { ...problem, field } : problem;
}
