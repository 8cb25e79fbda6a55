import { describe, expect, it } from "vitest";
import { AuthError } from "../../src/errors.ts";
import {
  assertAllowed,
  createAccessControl,
  isPermissionRequest,
  type PermissionRequest,
  roleAllows,
  splitRoles,
} from "../../src/services/access-control.ts";

const ac = createAccessControl({
  project: ["create", "read", "update", "delete"],
  billing: ["read", "update"],
});
const roles = {
  owner: ac.newRole({ project: ["create", "read", "update", "delete"], billing: ["read", "update"] }),
  editor: ac.newRole({ project: ["read", "update"] }),
  viewer: ac.newRole({ project: ["read"], billing: [] }),
};

describe("access-control roles", () => {
  it("grants a request whose actions the role holds and refuses one it lacks, naming the resource", () => {
    expect(roles.editor.authorize({ project: ["read", "update"] })).toEqual({ allowed: true });
    expect(roles.editor.authorize({ project: ["delete"] })).toEqual({
      allowed: false,
      reason: "actions",
      resource: "project",
      message: "unauthorized to access resource project",
    });
    expect(roles.editor.authorize({ billing: ["read"] })).toEqual({
      allowed: false,
      reason: "resource",
      resource: "billing",
      message: "You are not allowed to access resource: billing",
    });
  });

  it("requires every action unless the per-resource connector is OR", () => {
    expect(roles.viewer.authorize({ project: ["read", "update"] }).allowed).toBe(false);
    expect(roles.viewer.authorize({ project: { actions: ["read", "update"], connector: "OR" } }).allowed).toBe(true);
    expect(roles.viewer.authorize({ project: { actions: ["read", "update"], connector: "AND" } }).allowed).toBe(false);
    expect(roles.viewer.authorize({ billing: ["read"] })).toMatchObject({ allowed: false, reason: "actions" });
  });

  it("requires every resource with AND and any resource with OR", () => {
    const request: PermissionRequest = { project: ["read"], billing: ["read"] };
    expect(roles.editor.authorize(request, "AND")).toMatchObject({ allowed: false, resource: "billing" });
    expect(roles.editor.authorize(request, "OR")).toEqual({ allowed: true });
    expect(roles.editor.authorize({ billing: ["read"], project: ["delete"] }, "OR")).toMatchObject({
      allowed: false,
      resource: "billing",
    });
    expect(roles.owner.authorize(request, "AND")).toEqual({ allowed: true });
  });

  it("refuses an empty request and rejects a malformed one as an invalid access control request", () => {
    expect(roles.owner.authorize({})).toMatchObject({ allowed: false, reason: "empty" });
    const malformed = { project: "read" } as unknown as PermissionRequest;
    expect(() => roles.owner.authorize(malformed)).toThrow(AuthError);
    expect(() => roleAllows(roles, "owner", malformed)).toThrow("Invalid access control request");
    expect(isPermissionRequest({ project: { actions: ["read"], connector: "XOR" } })).toBe(false);
    expect(isPermissionRequest([])).toBe(false);
    expect(isPermissionRequest({ project: ["read"], billing: { actions: ["read"] } })).toBe(true);
  });

  it("does not treat inherited object properties as resources or roles", () => {
    expect(roles.owner.authorize({ toString: ["read"] })).toMatchObject({ allowed: false, reason: "resource" });
    expect(roleAllows(roles, "constructor", { project: ["read"] }).allowed).toBe(false);
  });

  it("keeps roles independent of later changes to their definition", () => {
    const actions: ("read" | "delete")[] = ["read"];
    const role = ac.newRole({ project: actions });
    actions.push("delete");
    expect(role.authorize({ project: ["delete"] }).allowed).toBe(false);
  });
});

describe("roleAllows over comma-separated role strings", () => {
  it("splits, trims and drops empty role names", () => {
    expect(splitRoles(" owner, editor ,,")).toEqual(["owner", "editor"]);
    expect(splitRoles(["viewer"])).toEqual(["viewer"]);
    expect(splitRoles(null)).toEqual([]);
  });

  it("grants when any one of the roles grants", () => {
    expect(roleAllows(roles, "viewer,editor", { project: ["update"] })).toEqual({ allowed: true });
    expect(roleAllows(roles, ["ghost", "owner"], { billing: ["update"] })).toEqual({ allowed: true });
    expect(roleAllows(roles, "viewer", { project: ["read"], billing: ["update"] }, "OR")).toEqual({ allowed: true });
  });

  it("reports the closest refusal when no role grants, and unknown roles grant nothing", () => {
    expect(roleAllows(roles, "editor,viewer", { billing: ["update"] })).toMatchObject({
      reason: "actions",
      resource: "billing",
    });
    expect(roleAllows(roles, "ghost", { project: ["read"] })).toMatchObject({
      allowed: false,
      reason: "resource",
      message: "You are not allowed to access resource: project",
    });
    expect(roleAllows(roles, "", { project: ["read"] }).allowed).toBe(false);
  });

  it("turns refusals into 403 errors with the spec's messages", () => {
    expect(() => assertAllowed({ allowed: true })).not.toThrow();
    const resourceRefusal = catchError(() => assertAllowed(roleAllows(roles, "editor", { billing: ["read"] })));
    expect(resourceRefusal).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE",
      message: "You are not allowed to access resource: billing",
    });
    const actionRefusal = catchError(() => assertAllowed(roleAllows(roles, "editor", { project: ["delete"] })));
    expect(actionRefusal).toMatchObject({
      status: 403,
      code: "UNAUTHORIZED_TO_ACCESS_RESOURCE",
      message: "unauthorized to access resource project",
    });
  });
});

function catchError(run: () => void): AuthError {
  try {
    run();
  } catch (error) {
    return error as AuthError;
  }
  throw new Error("expected a refusal");
}
