import * as z from "zod";
import { fromKeycloak } from "../../../crypto/imported-hash-forms.ts";
import type { V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { isoTime, providerIdOf, readJSONFile } from "./json-file.ts";
import { ImportSourceError } from "./json-lines.ts";

// Keycloak: a realm export (`kc.sh export --realm R --file realm.json`, or a partial export with users).
// Carries over: id, email and its verification, first and last name, username, enabled (a disabled user is
// banned), creation time, the password credential (PBKDF2 or argon2, verified as Keycloak made it), a TOTP
// credential of 6 digits, 30 seconds and SHA-1 (Keycloak's default), and federated identities.

const Credential = z.object({ type: z.string(), secretData: z.string(), credentialData: z.string() });

const KeycloakUser = z.object({
  id: z.string(),
  username: z.string().optional(),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  enabled: z.boolean().optional(),
  createdTimestamp: z.number().optional(),
  credentials: z.array(Credential).optional(),
  federatedIdentities: z.array(z.object({ identityProvider: z.string(), userId: z.string() })).optional(),
});

const json = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

function passwordOf(credential: z.infer<typeof Credential> | undefined): string | null {
  if (!credential) return null;
  const secret = json(credential.secretData);
  const data = json(credential.credentialData);
  return fromKeycloak({
    value: String(secret.value ?? ""),
    salt: String(secret.salt ?? ""),
    algorithm: String(data.algorithm ?? ""),
    hashIterations: Number(data.hashIterations),
    additionalParameters: data.additionalParameters as Record<string, string[]> | undefined,
  });
}

/** The TOTP secret of an OTP credential authd's TOTP checks the same way; a problem otherwise. */
function totpOf(credential: z.infer<typeof Credential> | undefined): V1UserInput["twoFactor"] | string {
  if (!credential) return null;
  const data = json(credential.credentialData);
  const standard =
    (data.subType ?? "totp") === "totp" &&
    Number(data.digits ?? 6) === 6 &&
    Number(data.period ?? 30) === 30 &&
    (data.algorithm ?? "HmacSHA1") === "HmacSHA1" &&
    (data.secretEncoding ?? "UTF8") === "UTF8";
  const value = json(credential.secretData).value;
  if (!standard || typeof value !== "string") return "an OTP credential other than TOTP, 6 digits, 30 s, SHA-1";
  return { enabled: true, totpSecret: value, backupCodes: [] };
}

function recordOf(user: z.infer<typeof KeycloakUser>, now: string): V1UserInput | string {
  const credentials = user.credentials ?? [];
  const twoFactor = totpOf(credentials.find((c) => c.type === "otp"));
  if (typeof twoFactor === "string") return twoFactor;
  let password: string | null;
  try {
    password = passwordOf(credentials.find((c) => c.type === "password"));
  } catch (error) {
    return `password: ${(error as Error).message}`;
  }
  const createdAt = isoTime(user.createdTimestamp, now);
  return {
    id: user.id,
    email: user.email ?? "",
    emailVerified: user.emailVerified ?? false,
    name: [user.firstName, user.lastName].filter(Boolean).join(" "),
    username: user.username ?? null,
    banned: user.enabled === false,
    createdAt,
    updatedAt: createdAt,
    password,
    twoFactor,
    accounts: (user.federatedIdentities ?? []).map((identity) => ({
      provider: providerIdOf(identity.identityProvider),
      accountId: identity.userId,
    })),
  };
}

export function openKeycloak(file: string): RecordStream {
  const realm = readJSONFile(file, "a Keycloak realm export") as { users?: unknown };
  if (!Array.isArray(realm.users))
    throw new ImportSourceError(`${file}: no "users" list (export the realm with its users)`);
  const users = realm.users as unknown[];
  const now = new Date().toISOString();
  return {
    header: { users: users.length, hashConfigs: {} },
    async *records(): AsyncGenerator<SourceRecord> {
      for (const [index, raw] of users.entries()) {
        const position = `user ${index + 1}`;
        const user = KeycloakUser.safeParse(raw);
        if (!user.success) {
          yield { position, problem: "not a Keycloak user" };
          continue;
        }
        const record = recordOf(user.data, now);
        yield typeof record === "string" ? { position, problem: record } : { position, record };
      }
    },
  };
}
