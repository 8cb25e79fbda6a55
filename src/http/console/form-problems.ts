import type { Context } from "hono";
import type { ConsoleMessageKey } from "../../../ui/shared/messages/console.ts";
import type { AuthContext } from "../../context.ts";
import { type ErrorKey, isAuthError } from "../../errors.ts";
import type { PermissionRequest } from "../../services/access-control.ts";
import type { FormFields } from "../pages/guard.ts";
import { type ConsoleAccess, consoleAction, type DrawScreen } from "./frame.ts";

// The forms of the organizations, API keys and clients screens: a problem of one form (a missing
// confirmation, a field it could not have sent, or a refusal of the service an operator reads differently
// from a member: "keeps an owner", not "you cannot leave") is drawn beside that form, in the console's words:
// the problem's field names the form, its code the console message. Other refusals go to consoleAction.

export class ConsoleFormProblem extends Error {
  constructor(
    readonly form: string,
    readonly messageKey: ConsoleMessageKey,
  ) {
    super(messageKey);
  }
}

/** A form's "I am sure" box: what cannot be undone is not done without it. */
export function requireConfirmed(fields: FormFields, form: string, messageKey: ConsoleMessageKey): void {
  if (fields.confirm !== "yes") throw new ConsoleFormProblem(form, messageKey);
}

export type FormAct = (
  c: Context,
  ctx: AuthContext,
  access: ConsoleAccess,
  fields: FormFields,
) => Promise<{ to: string; notice?: string } | Response>;

/**
 * A console form whose refusals named in `words` (catalogue key → console message) and whose own problems
 * are drawn beside the form `formOf(fields)` names, answering 400 (409 would say nothing more to a browser).
 */
export function formAction(
  permission: PermissionRequest,
  draw: DrawScreen,
  formOf: (fields: FormFields) => string,
  words: Partial<Record<ErrorKey, ConsoleMessageKey>>,
  act: FormAct,
) {
  return consoleAction(permission, draw, async (c, ctx, access, fields) => {
    try {
      return await act(c, ctx, access, fields);
    } catch (error) {
      const key = isAuthError(error) ? words[error.key] : undefined;
      const problem =
        error instanceof ConsoleFormProblem ? error : key ? new ConsoleFormProblem(formOf(fields), key) : null;
      if (!problem) throw error;
      return draw(c, ctx, access, { code: problem.messageKey, field: problem.form }, 400);
    }
  });
}
