import { createHash, pbkdf2Sync, randomBytes, scryptSync } from "node:crypto";
import { createPasswordHasher } from "../../src/crypto/password.ts";

// Password hashes as other systems write them, made here from a known password (issue 33's fixtures):
// bcrypt and argon2 by Bun.password, PBKDF2 and scrypt by node:crypto, Firebase's documented test vector,
// phpass's published test vector. Each is in the form its source exports, not authd's tagged form.

const b64 = (bytes: Buffer) => bytes.toString("base64");

/** Firebase's documented vector (firebase/scrypt README): its project config, the user's salt and hash. */
export const FIREBASE_VECTOR = {
  config: {
    signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
    saltSeparator: "Bw==",
    rounds: 8,
    memCost: 14,
  },
  password: "user1password",
  salt: "42xEC+ixf3L2lw==",
  hash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
};

/** phpass's own test vector (WordPress `$P$`). */
export const PHPASS_VECTOR = { password: "test12345", hash: "$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0" };

export function bcryptHash(password: string, cost = 4, variant: "2a" | "2b" | "2y" = "2b"): string {
  return Bun.password.hashSync(password, { algorithm: "bcrypt", cost }).replace(/^\$2[aby]\$/, `$${variant}$`);
}

export function argon2Hash(password: string, algorithm: "argon2id" | "argon2i" | "argon2d" = "argon2id"): string {
  return Bun.password.hashSync(password, { algorithm, memoryCost: 1024, timeCost: 2 });
}

export function scryptPhc(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  return `$scrypt$ln=10,r=8,p=1$${b64(salt).replace(/=+$/, "")}$${b64(key).replace(/=+$/, "")}`;
}

/** Better Auth's own hash (authd's native format at N=16384). */
export function betterAuthHash(password: string): Promise<string> {
  return createPasswordHasher(16384).hash(password);
}

export function djangoPbkdf2(password: string, digest: "sha1" | "sha256" | "sha512" = "sha256", iterations = 1000) {
  const salt = "Ks9Q1pBMWlz8RyPhTyV2";
  const key = pbkdf2Sync(password, salt, iterations, { sha1: 20, sha256: 32, sha512: 64 }[digest], digest);
  return `pbkdf2_${digest}$${iterations}$${salt}$${b64(key)}`;
}

export function keycloakCredential(password: string, algorithm = "pbkdf2-sha256", iterations = 1000) {
  const salt = randomBytes(16);
  const digest = { pbkdf2: "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" }[algorithm] ?? "sha256";
  const value = pbkdf2Sync(password, salt, iterations, 64, digest);
  return {
    secretData: JSON.stringify({ value: b64(value), salt: b64(salt), additionalParameters: {} }),
    credentialData: JSON.stringify({ hashIterations: iterations, algorithm, additionalParameters: {} }),
  };
}

/** ASP.NET Core Identity: version 2 (PBKDF2-SHA1, 1,000 iterations) or version 3 (SHA-256 here). */
export function aspNetIdentityHash(password: string, version: 2 | 3): string {
  const salt = randomBytes(16);
  if (version === 2) return b64(Buffer.concat([Buffer.from([0]), salt, pbkdf2Sync(password, salt, 1000, 32, "sha1")]));
  const header = Buffer.alloc(13);
  header[0] = 1;
  header.writeUInt32BE(1, 1);
  header.writeUInt32BE(10_000, 5);
  header.writeUInt32BE(salt.length, 9);
  return b64(Buffer.concat([header, salt, pbkdf2Sync(password, salt, 10_000, 32, "sha256")]));
}

export const md5Hex = (password: string) => createHash("md5").update(password).digest("hex");
export const sha1Hex = (password: string) => createHash("sha1").update(password).digest("hex");
