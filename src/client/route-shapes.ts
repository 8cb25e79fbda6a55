import type { Permissions } from "./types.ts";

// The shape of a route in the client's route tables (routes.ts, two-factor.ts, admin.ts): its method, what
// it takes (a query for GET, a body for POST) and what it answers.

export interface Get<Query, Output> {
  method: "GET";
  input: Query;
  output: Output;
}

export interface Post<Body, Output> {
  method: "POST";
  input: Body;
  output: Output;
}

export type None = Record<never, never>;

export type PermissionCheck = { permissions?: Permissions; permission?: Permissions };
