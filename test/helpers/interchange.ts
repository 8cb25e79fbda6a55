import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createTestContext, type Dialect, type TestContext } from "./context.ts";

// authd.v1 files written by tests (issue 33): a header line and one line per user.

export interface FixtureUser {
  id: string;
  email: string;
  emailVerified?: boolean;
  name?: string;
  password?: string | null;
  [field: string]: unknown;
}

const CREATED = "2024-03-01T10:00:00.000Z";

/** One user line with the defaults a source would give. */
export function userLine(user: FixtureUser): Record<string, unknown> {
  return {
    emailVerified: true,
    name: `Imported ${user.id}`,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...user,
  };
}

/** Write an authd.v1 file into `dir`; its path. */
export function writeInterchangeFile(
  dir: string,
  name: string,
  users: FixtureUser[],
  header: Record<string, unknown> = {},
): string {
  const path = join(dir, name);
  const lines = [
    JSON.stringify({ format: "authd.v1", users: users.length, secrets: true, hashConfigs: {}, ...header }),
    ...users.map((user) => JSON.stringify(userLine(user))),
  ];
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/**
 * A test database with the environment that points `authd` at it and a scratch directory for files, made
 * before the file's tests and removed after (import tests run the CLI against it and check over HTTP).
 */
export function useCliDatabase(
  dialect: Dialect,
  prefix: string,
): { t: TestContext; env: Record<string, string>; dir: string } {
  const state = {} as { t: TestContext; env: Record<string, string>; dir: string };
  beforeAll(async () => {
    state.t = await createTestContext({ dialect, realTime: true });
    state.env = { AUTH_DATABASE_URL: state.t.ctx.config.databaseURL };
    state.dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await state.t.close();
    rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}
