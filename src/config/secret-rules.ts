// Which AUTH_SECRET and AUTH_SERVER_TOKEN values `authd serve` and `authd config check` refuse. A secret
// anyone can read (our own examples, a placeholder left in an env file) signs cookies and seals TOTP secrets
// for whoever reads it; a server token anyone can read holds every admin permission. So refuse, before the
// daemon listens:
//   1. a value our examples and docs have ever shipped (KNOWN_PUBLIC_VALUES; test/unit/secret-rules.test.ts
//      scans the docs and examples so a new one cannot slip in unlisted), and any value containing a
//      placeholder word (change-me, example, secret, …): a person typed it;
//   2. a value with less than 32 bytes (256 bits) of entropy, estimated as length × bits per character of
//      the smallest usual alphabet holding all its characters (digits 3.3, hex 4, base32 5, base64 6,
//      anything else 6.5; base64 padding counts for nothing);
//   3. a value with a repeated block (8 characters seen twice) or 8 ascending characters in a row
//      ("abcdefgh", "01234567"): a pattern, not randomness;
//   4. the same value as AUTH_SECRET and AUTH_SERVER_TOKEN: whoever holds the token would hold the secret.
// The estimate cannot tell a long invented phrase from a random one; the docs say to generate both values
// (`head -c 48 /dev/urandom | base64`). A generated value fails rule 1 or 3 by chance about once in 500,000
// (a placeholder word or a repeated block drawn at random): the line says to generate another.

export const MIN_ENTROPY_BITS = 256;
export const GENERATE_COMMAND = "head -c 48 /dev/urandom | base64";

/** Values shipped in authd's own examples and docs, past and present: deployments copied them verbatim. */
export const KNOWN_PUBLIC_VALUES: readonly string[] = [
  "change-me-to-48-random-bytes-in-base64-change-me-now",
  "change-me-to-32-random-bytes-in-base64",
];

/** Words no generated value holds (compared without case, separators removed). */
const PLACEHOLDER_WORDS = ["changeme", "replaceme", "example", "placeholder", "secret", "password", "token"];

const ALPHABETS: { pattern: RegExp; bitsPerCharacter: number }[] = [
  { pattern: /^[0-9]+$/, bitsPerCharacter: Math.log2(10) },
  { pattern: /^([0-9a-f]+|[0-9A-F]+)$/, bitsPerCharacter: 4 },
  { pattern: /^[A-Z2-7]+$/, bitsPerCharacter: 5 },
  { pattern: /^[A-Za-z0-9+/_-]+$/, bitsPerCharacter: 6 },
];
const OTHER_BITS_PER_CHARACTER = Math.log2(95);

/** The estimated entropy of a value in bits (see rule 2 above). */
export function estimatedEntropyBits(value: string): number {
  const body = value.replace(/=+$/, "");
  const alphabet = ALPHABETS.find((a) => a.pattern.test(body));
  return body.length * (alphabet?.bitsPerCharacter ?? OTHER_BITS_PER_CHARACTER);
}

function hasRepeatedBlock(value: string): boolean {
  const seen = new Set<string>();
  for (let i = 0; i + 8 <= value.length; i++) {
    const block = value.slice(i, i + 8);
    if (seen.has(block)) return true;
    seen.add(block);
  }
  return false;
}

function hasAscendingRun(value: string): boolean {
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return false;
}

/** Why a value cannot be a secret or a server token, or null when it passes the rules above. */
export function weakSecretReason(value: string): string | null {
  const squeezed = value.toLowerCase().replace(/[\s_.-]+/g, "");
  if (KNOWN_PUBLIC_VALUES.includes(value)) return "is a value published in authd's examples";
  const word = PLACEHOLDER_WORDS.find((w) => squeezed.includes(w));
  if (word) return `contains "${word}", so a person chose it`;
  const bits = Math.floor(estimatedEntropyBits(value));
  if (bits < MIN_ENTROPY_BITS)
    return `has about ${bits} bits of entropy, ${MIN_ENTROPY_BITS} needed (32 random bytes: 43 base64 or 64 hex characters)`;
  if (hasRepeatedBlock(value) || hasAscendingRun(value)) return "repeats a pattern, so it is not random";
  return null;
}

export interface SecretSettings {
  secret?: string;
  serverToken?: string;
}

/** One line per refused value, naming where it was set (`label("secret")` → "AUTH_SECRET"). */
export function secretProblems(config: SecretSettings, label: (key: keyof SecretSettings) => string): string[] {
  const problems: string[] = [];
  for (const key of ["secret", "serverToken"] as const) {
    const value = config[key];
    const reason = value === undefined ? null : weakSecretReason(value);
    if (reason) problems.push(`${label(key)}: refused, the value ${reason}; generate one: ${GENERATE_COMMAND}`);
  }
  // Told only of values otherwise fine: two copies of one placeholder are one mistake, said once per variable.
  if (problems.length === 0 && config.secret !== undefined && config.secret === config.serverToken)
    problems.push(
      `${label("serverToken")}: refused, the same value as ${label("secret")}; generate a different one: ${GENERATE_COMMAND}`,
    );
  return problems;
}
