import { writeFileSync } from "node:fs";
import { join } from "node:path";

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
