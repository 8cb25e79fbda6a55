import * as z from "zod";
import type { V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { isoTime, providerIdOf } from "./json-file.ts";
import { jsonLines, readLines } from "./json-lines.ts";

// Auth0: the user export job's NDJSON (users, their identities), joined with the password hash export Auth0
// support sends (NDJSON with `_id.$oid` and `passwordHash`, bcrypt). Carries over: user_id, email and its
// verification, name, picture, times, blocked (as a ban), the bcrypt password, and social identities.

const Auth0User = z.object({
  user_id: z.string(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  nickname: z.string().optional(),
  picture: z.string().optional(),
  username: z.string().optional(),
  blocked: z.boolean().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  identities: z.array(z.object({ provider: z.string(), user_id: z.union([z.string(), z.number()]) })).optional(),
});

const HashLine = z.object({ _id: z.object({ $oid: z.string() }), passwordHash: z.string().optional() });

/** The hash export, by the id Auth0 gives the database user (the part of user_id after `auth0|`). */
async function readHashes(path: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for await (const item of jsonLines(readLines(path))) {
    if (item.problem !== undefined) continue;
    const line = HashLine.safeParse(item.record);
    if (line.success && line.data.passwordHash) hashes.set(line.data._id.$oid, line.data.passwordHash);
  }
  return hashes;
}

function recordOf(user: z.infer<typeof Auth0User>, hashes: Map<string, string>, now: string): V1UserInput {
  const [connection, localId] = user.user_id.split("|");
  const createdAt = isoTime(user.created_at, now);
  return {
    id: user.user_id,
    email: user.email ?? "",
    emailVerified: user.email_verified ?? false,
    name: user.name ?? user.nickname ?? "",
    image: user.picture ?? null,
    username: user.username ?? null,
    banned: user.blocked ?? false,
    createdAt,
    updatedAt: isoTime(user.updated_at, createdAt),
    password: connection === "auth0" && localId ? (hashes.get(localId) ?? null) : null,
    accounts: (user.identities ?? [])
      .filter((identity) => identity.provider !== "auth0")
      .map((identity) => ({ provider: providerIdOf(identity.provider), accountId: String(identity.user_id) })),
  };
}

export function openAuth0(usersFile: string, hashesFile: string | undefined): RecordStream {
  const now = new Date().toISOString();
  return {
    header: { hashConfigs: {} },
    async *records(): AsyncGenerator<SourceRecord> {
      const hashes = hashesFile ? await readHashes(hashesFile) : new Map<string, string>();
      for await (const item of jsonLines(readLines(usersFile))) {
        if (item.problem !== undefined) {
          yield item;
          continue;
        }
        const user = Auth0User.safeParse(item.record);
        yield user.success
          ? { position: item.position, record: recordOf(user.data, hashes, now) }
          : { position: item.position, problem: "not an Auth0 user (no user_id)" };
      }
    },
  };
}
