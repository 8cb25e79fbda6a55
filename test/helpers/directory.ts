import type { Db, NewUserRow } from "../../src/db/schema.ts";

// Users written straight into the database for the user-directory tests: thousands in a second, with exactly
// the flags, roles, accounts, passkeys and memberships a test asks for (sign-ups would take minutes).

export interface DirectoryUser {
  id: string;
  email: string;
  name?: string;
  username?: string | null;
  createdAt: number;
  emailVerified?: boolean;
  role?: string | null;
  banned?: boolean;
  banExpires?: number | null;
  twoFactor?: boolean;
  passkeys?: number;
  providers?: string[];
  organizations?: string[];
}

function userRow(user: DirectoryUser): NewUserRow {
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? user.id,
    emailVerified: user.emailVerified ?? true,
    image: null,
    createdAt: user.createdAt,
    updatedAt: user.createdAt,
    username: user.username ?? null,
    displayUsername: user.username ?? null,
    role: user.role === undefined ? "user" : user.role,
    banned: user.banned ? true : null,
    banReason: user.banned ? "test" : null,
    banExpires: user.banExpires ?? null,
    additionalFields: null,
    twoFactorEnabled: user.twoFactor ? true : null,
  };
}

/** Organizations by id (slug `<id>-slug`), for the users' memberships. */
export async function insertOrganizations(db: Db, ids: string[], createdAt: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insertInto("organization")
    .values(ids.map((id) => ({ id, name: `Org ${id}`, slug: `${id}-slug`, logo: null, metadata: null, createdAt })))
    .execute();
}

export async function insertDirectoryUsers(db: Db, users: DirectoryUser[]): Promise<void> {
  for (let start = 0; start < users.length; start += 500) {
    const batch = users.slice(start, start + 500);
    await db.insertInto("user").values(batch.map(userRow)).execute();
    const accounts = batch.flatMap((user) =>
      (user.providers ?? []).map((providerId) => ({
        id: `${user.id}-${providerId}`,
        accountId: `${providerId}-${user.id}`,
        providerId,
        userId: user.id,
        password: null,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        createdAt: user.createdAt,
        updatedAt: user.createdAt,
      })),
    );
    if (accounts.length > 0) await db.insertInto("account").values(accounts).execute();
    const passkeys = batch.flatMap((user) =>
      Array.from({ length: user.passkeys ?? 0 }, (_, i) => ({
        id: `${user.id}-pk${i}`,
        name: null,
        publicKey: "cGs=",
        userId: user.id,
        credentialID: `${user.id}-cred${i}`,
        counter: 0,
        deviceType: "singleDevice",
        backedUp: false,
        transports: null,
        createdAt: user.createdAt,
        aaguid: null,
        lastUsedAt: null,
      })),
    );
    if (passkeys.length > 0) await db.insertInto("passkey").values(passkeys).execute();
    const members = batch.flatMap((user) =>
      (user.organizations ?? []).map((organizationId) => ({
        id: `${user.id}-${organizationId}`,
        organizationId,
        userId: user.id,
        role: "member",
        teamId: null,
        createdAt: user.createdAt,
      })),
    );
    if (members.length > 0) await db.insertInto("member").values(members).execute();
  }
}
