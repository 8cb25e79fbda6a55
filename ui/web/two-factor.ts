import type { FormProblem } from "./state.ts";

// The second-factor page's refusals, for the server's page and the hydrated one alike. A wrong code is the
// form's problem, shown in its announced region (role="alert"), so a screen reader hears it with or without
// JavaScript; a locked second factor reads as the other "too many attempts" answers do.

export function twoFactorProblem(code: string, status?: number): FormProblem {
  return status === 429 ? { code: "TOO_MANY_REQUESTS" } : { code };
}
