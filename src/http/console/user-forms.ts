import type { Context } from "hono";
import type { IssueKeyOptions, OperatorApiKeyChanges } from "../../../ui/data.ts";
import type { FormFields } from "../pages/guard.ts";
import { ConsoleFormProblem, requireConfirmed } from "./form-problems.ts";

// Reading the user screen's forms: a field the form could not have sent (a forged choice, a number out of
// range) or a missing confirmation is not a refusal of the service but of the form, drawn beside the form
// it belongs to (ConsoleFormProblem: the problem's field names the form, its code the console message).

/** The path of a user's screen under /console. */
export const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;

/** The user the path names (/console/users/:id/…). */
export const userIdOf = (c: Context) => c.req.param("id") ?? "";

/** The form's "I am sure" box: destructive forms do nothing without it. */
export function requireConfirmation(fields: FormFields, form: string): void {
  requireConfirmed(fields, form, "console.user.problem.confirm");
}

/** A whole number in [min, max] from a field; undefined when the field is empty. */
export function wholeNumber(fields: FormFields, name: string, form: string, min: number, max: number) {
  const text = (fields[name] ?? "").trim();
  if (text === "") return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new ConsoleFormProblem(form, "console.user.problem.number");
  return value;
}

/** One line of text of at most `max` characters (control characters never pass the guard). */
export function line(fields: FormFields, name: string, form: string, max: number): string {
  const value = (fields[name] ?? "").trim();
  if (value.length > max || /[\r\n]/.test(value)) throw new ConsoleFormProblem(form, "console.user.problem.text");
  return value;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 3650;

/** "files:read,write; reports:read" → { files: ["read", "write"], reports: ["read"] }. */
export function parsePermissions(text: string, form: string): Record<string, string[]> | undefined {
  if (text.trim() === "") return undefined;
  const permissions: Record<string, string[]> = {};
  for (const part of text.split(";")) {
    if (part.trim() === "") continue;
    const [resource = "", actions = "", ...rest] = part.split(":").map((each) => each.trim());
    const list = actions
      .split(",")
      .map((action) => action.trim())
      .filter(Boolean);
    if (!/^[\w.-]+$/.test(resource) || list.length === 0 || rest.length > 0 || !list.every((a) => /^[\w.*-]+$/.test(a)))
      throw new ConsoleFormProblem(form, "console.user.problem.permissions");
    permissions[resource] = [...(permissions[resource] ?? []), ...list];
  }
  return permissions;
}

/** A key's limits as the issue and change forms take them (each optional; empty: unchanged or default). */
function keyLimits(fields: FormFields, form: string) {
  const remaining = wholeNumber(fields, "remaining", form, 0, 1_000_000_000);
  const refillAmount = wholeNumber(fields, "refillAmount", form, 1, 1_000_000_000);
  const refillDays = wholeNumber(fields, "refillDays", form, 1, MAX_DAYS);
  if ((refillAmount === undefined) !== (refillDays === undefined))
    throw new ConsoleFormProblem(form, "console.user.problem.refill");
  const refill = refillAmount && refillDays ? { amount: refillAmount, intervalMs: refillDays * DAY_MS } : undefined;
  const rateLimitMax = wholeNumber(fields, "rateLimitMax", form, 1, 1_000_000_000);
  const rateLimitSeconds = wholeNumber(fields, "rateLimitSeconds", form, 1, 366 * 86_400);
  if ((rateLimitMax === undefined) !== (rateLimitSeconds === undefined))
    throw new ConsoleFormProblem(form, "console.user.problem.rateLimit");
  const rateLimit =
    fields.rateLimitOff === "yes"
      ? (false as const)
      : rateLimitMax && rateLimitSeconds
        ? { max: rateLimitMax, windowMs: rateLimitSeconds * 1000 }
        : undefined;
  const expiresDays = wholeNumber(fields, "expiresDays", form, 1, MAX_DAYS);
  return { remaining, refill, rateLimit, expiresInSeconds: expiresDays ? expiresDays * 86_400 : undefined };
}

/** The issue form: a name, the limits, the permissions. */
export function issueKeyOptions(fields: FormFields): IssueKeyOptions {
  const form = "issue-key";
  const name = line(fields, "name", form, 64);
  const permissions = parsePermissions(line(fields, "permissions", form, 1000), form);
  return { ...keyLimits(fields, form), ...(name ? { name } : {}), ...(permissions ? { permissions } : {}) };
}

/** The change form of one key: what it fills in changes, the rest stays (never-expires clears the expiry). */
export function keyChanges(fields: FormFields): OperatorApiKeyChanges {
  const form = `key-${fields.keyId ?? ""}`;
  const { expiresInSeconds, ...limits } = keyLimits(fields, form);
  const changes: OperatorApiKeyChanges = {};
  for (const [name, value] of Object.entries(limits))
    if (value !== undefined) Object.assign(changes, { [name]: value });
  if (fields.neverExpires === "yes") changes.expiresInSeconds = null;
  else if (expiresInSeconds !== undefined) changes.expiresInSeconds = expiresInSeconds;
  if (fields.enabled === "yes" || fields.enabled === "no") changes.enabled = fields.enabled === "yes";
  return changes;
}
