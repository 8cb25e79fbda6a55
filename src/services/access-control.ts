// A small, generic role-based access-control engine. A set of statements names every resource and the
// actions it knows; roles grant a subset of them. The admin capability and organizations both build their
// roles here, so nothing in this file knows about either.

import { AuthError } from "../errors.ts";

export type Connector = "AND" | "OR";

/** Resource name → the actions that exist (or that a role holds) on it. */
export type Statements = { readonly [resource: string]: readonly string[] };

/** The actions asked for on one resource: all of them, or per the given connector. */
export type ActionRequest = readonly string[] | { readonly actions: readonly string[]; readonly connector?: Connector };

/** Resource name → the actions asked for on it. */
export type PermissionRequest = { readonly [resource: string]: ActionRequest };

export type AccessDecision =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** "resource": the role knows nothing of the resource; "actions": it lacks some actions; "empty": nothing was asked. */
      readonly reason: "resource" | "actions" | "empty";
      readonly resource?: string;
      readonly message: string;
    };

export interface Role {
  readonly statements: Statements;
  authorize(request: PermissionRequest, connector?: Connector): AccessDecision;
}

export type RoleMap = { readonly [roleName: string]: Role };

/** Actions the statements define for each resource, used to type role definitions. */
export type RoleStatements<S extends Statements> = { readonly [R in keyof S]?: readonly S[R][number][] };

export interface AccessControl<S extends Statements> {
  readonly statements: S;
  newRole(statements: RoleStatements<S>): Role;
}

const ALLOWED: AccessDecision = { allowed: true };

export function missingResourceMessage(resource: string): string {
  return `You are not allowed to access resource: ${resource}`;
}

export function missingActionsMessage(resource: string): string {
  return `unauthorized to access resource ${resource}`;
}

function holdsActions(held: readonly string[], asked: ActionRequest): boolean {
  if (Array.isArray(asked)) return asked.every((action) => held.includes(action));
  const { actions, connector } = asked as { actions: readonly string[]; connector?: Connector };
  return connector === "OR"
    ? actions.some((action) => held.includes(action))
    : actions.every((action) => held.includes(action));
}

/** Builds a role holding exactly `statements`. */
export function defineRole(statements: Statements): Role {
  const frozen: Statements = Object.freeze(
    Object.fromEntries(
      Object.entries(statements).map(([resource, actions]) => [resource, Object.freeze([...(actions ?? [])])]),
    ),
  );
  return {
    statements: frozen,
    authorize(request, connector = "AND") {
      assertPermissionRequest(request);
      const resources = Object.keys(request);
      if (resources.length === 0) return { allowed: false, reason: "empty", message: "Not authorized" };
      let firstRefusal: AccessDecision | undefined;
      for (const resource of resources) {
        const held = Object.hasOwn(frozen, resource) ? frozen[resource] : undefined;
        const refusal: AccessDecision | undefined = !held
          ? { allowed: false, reason: "resource", resource, message: missingResourceMessage(resource) }
          : holdsActions(held, request[resource] ?? [])
            ? undefined
            : { allowed: false, reason: "actions", resource, message: missingActionsMessage(resource) };
        if (!refusal && connector === "OR") return ALLOWED;
        if (refusal && connector === "AND") return refusal;
        firstRefusal ??= refusal;
      }
      if (connector === "AND") return ALLOWED;
      // Fail closed: with OR every resource was refused, so a refusal is always recorded here.
      return firstRefusal ?? { allowed: false, reason: "empty", message: "Not authorized" };
    },
  };
}

export function createAccessControl<const S extends Statements>(statements: S): AccessControl<S> {
  return { statements, newRole: (roleStatements) => defineRole(roleStatements as Statements) };
}

/** "admin, user" → ["admin", "user"]; the role field may hold several comma-separated roles. */
export function splitRoles(roles: string | readonly string[] | null | undefined): string[] {
  const list = typeof roles === "string" ? roles.split(",") : [...(roles ?? [])];
  return list.map((role) => role.trim()).filter((role) => role.length > 0);
}

/** True when `value` has the shape of a permission request (resource → action list or {actions, connector}). */
export function isPermissionRequest(value: unknown): value is PermissionRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((asked) => {
    if (Array.isArray(asked)) return asked.every((action) => typeof action === "string");
    if (typeof asked !== "object" || asked === null) return false;
    const { actions, connector } = asked as { actions?: unknown; connector?: unknown };
    return (
      Array.isArray(actions) &&
      actions.every((action) => typeof action === "string") &&
      (connector === undefined || connector === "AND" || connector === "OR")
    );
  });
}

function assertPermissionRequest(value: unknown): asserts value is PermissionRequest {
  if (!isPermissionRequest(value)) throw new AuthError("INVALID_ACCESS_CONTROL_REQUEST");
}

/**
 * Grants the request when any of the (comma-separated) roles grants it. When none does, the refusal of the
 * role that came closest is returned: lacking actions on a known resource says more than an unknown resource.
 * Unknown role names grant nothing.
 */
export function roleAllows(
  roles: RoleMap,
  roleNames: string | readonly string[] | null | undefined,
  request: PermissionRequest,
  connector: Connector = "AND",
): AccessDecision {
  assertPermissionRequest(request);
  let best: AccessDecision | undefined;
  for (const name of splitRoles(roleNames)) {
    const role = Object.hasOwn(roles, name) ? roles[name] : undefined;
    if (!role) continue;
    const decision = role.authorize(request, connector);
    if (decision.allowed) return decision;
    if (!best || (isActionsRefusal(decision) && !isActionsRefusal(best))) best = decision;
  }
  if (best) return best;
  const [firstResource] = Object.keys(request);
  return firstResource === undefined
    ? { allowed: false, reason: "empty", message: "Not authorized" }
    : { allowed: false, reason: "resource", resource: firstResource, message: missingResourceMessage(firstResource) };
}

function isActionsRefusal(decision: AccessDecision): boolean {
  return !decision.allowed && decision.reason === "actions";
}

/** Throws the spec's 403 for a refused decision; does nothing when it was allowed. */
export function assertAllowed(decision: AccessDecision): void {
  if (decision.allowed) return;
  if (decision.reason === "actions")
    throw new AuthError("UNAUTHORIZED_TO_ACCESS_RESOURCE", { message: decision.message });
  throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE", { message: decision.message });
}
