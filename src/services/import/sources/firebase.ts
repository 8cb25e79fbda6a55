import * as z from "zod";
import type { V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { isoTime, providerIdOf, readJSONFile } from "./json-file.ts";
import { ImportSourceError } from "./json-lines.ts";

// Firebase Authentication: `firebase auth:export users.json --format=json`, and the project's password hash
// parameters (console → Authentication → Users → ⋮ → Password hash parameters) saved as JSON and given with
// --hash-config. Carries over: uid, email and its verification, display name, photo, disabled (as a ban),
// creation time, the password (Firebase's scrypt) and the linked providers.

const HashConfig = z.object({
  algorithm: z.literal("SCRYPT").optional(),
  base64_signer_key: z.string(),
  base64_salt_separator: z.string(),
  rounds: z.coerce.number().int(),
  mem_cost: z.coerce.number().int(),
});

const FirebaseUser = z.object({
  localId: z.string(),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  disabled: z.boolean().optional(),
  createdAt: z.union([z.string(), z.number()]).optional(),
  passwordHash: z.string().optional(),
  salt: z.string().optional(),
  providerUserInfo: z.array(z.object({ providerId: z.string(), rawId: z.string() })).optional(),
});

function recordOf(user: z.infer<typeof FirebaseUser>, now: string): V1UserInput {
  const createdAt = isoTime(user.createdAt, now);
  return {
    id: user.localId,
    email: user.email ?? "",
    emailVerified: user.emailVerified ?? false,
    name: user.displayName ?? "",
    image: user.photoUrl ?? null,
    banned: user.disabled ?? false,
    createdAt,
    updatedAt: createdAt,
    password: user.passwordHash ? `$firebase-scrypt$config=firebase$${user.salt ?? ""}$${user.passwordHash}` : null,
    accounts: (user.providerUserInfo ?? [])
      .filter((info) => info.providerId !== "password")
      .map((info) => ({ provider: providerIdOf(info.providerId), accountId: info.rawId })),
  };
}

export function openFirebase(file: string, hashConfigFile: string | undefined): RecordStream {
  if (!hashConfigFile)
    throw new ImportSourceError("firebase needs --hash-config FILE (the project's password hash parameters)");
  const config = HashConfig.safeParse(readJSONFile(hashConfigFile, "Firebase's hash parameters"));
  if (!config.success)
    throw new ImportSourceError(
      `${hashConfigFile}: expected base64_signer_key, base64_salt_separator, rounds and mem_cost`,
    );
  const document = readJSONFile(file, "the output of firebase auth:export --format=json") as { users?: unknown };
  if (!Array.isArray(document.users)) throw new ImportSourceError(`${file}: no "users" list`);
  const users = document.users as unknown[];
  const now = new Date().toISOString();
  return {
    header: {
      users: users.length,
      hashConfigs: {
        firebase: {
          kind: "firebase-scrypt",
          signerKey: config.data.base64_signer_key,
          saltSeparator: config.data.base64_salt_separator,
          rounds: config.data.rounds,
          memCost: config.data.mem_cost,
        },
      },
    },
    async *records(): AsyncGenerator<SourceRecord> {
      for (const [index, raw] of users.entries()) {
        const position = `user ${index + 1}`;
        const user = FirebaseUser.safeParse(raw);
        yield user.success
          ? { position, record: recordOf(user.data, now) }
          : { position, problem: "not a Firebase user" };
      }
    },
  };
}
