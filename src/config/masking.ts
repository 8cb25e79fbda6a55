// The configuration as it may be shown (`authd config check`, the console's settings screen): every secret
// masked. Two nets, so a key added later is masked even if nobody lists it:
// - by name: the keys listed below, and any key whose name says secret, password, token, key material or
//   credentials (a string or a list of strings under it is masked whole; numbers and switches such as
//   resetPasswordTokenExpiresIn are not secrets);
// - by value: a URL's password (user:password@, ?password=…) wherever a URL appears, and a webhook signing
//   secret (whsec_…) under whatever key.

export const MASK = "********";

/** Keys holding secrets whatever their names say (the explicit list). */
const SECRET_KEYS = new Set(["secret", "previousSecrets", "serverToken", "clientSecret"]);
/** Key names that say "secret" (the pattern, for keys nobody listed). */
const SECRET_NAME =
  /secret|passw(or)?d|passphrase|token|api[-_]?key|private[-_]?key|signing[-_]?key|credential|auth[-_]?key|pepper|salt$/i;
/** Query parameters of a URL that carry a secret (a Postgres URL's ?password=, a token in a webhook URL). */
const SECRET_PARAMETER = /secret|passw(or)?d|token|key|sig|auth|credential/i;
const WEBHOOK_SECRET = /^whsec_/;

/** Whether a value under this key is a secret by the key's name alone. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key) || SECRET_NAME.test(key);
}

/** A URL with its password and secret-looking query parameters masked; any other text unchanged. */
export function maskURLPassword(value: string): string {
  let masked = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*:)[^@/?#]*@/i, `$1${MASK}@`);
  const query = masked.indexOf("?");
  if (query >= 0 && /^[a-z][a-z0-9+.-]*:\/\//i.test(masked)) {
    const [head, rest] = [masked.slice(0, query + 1), masked.slice(query + 1)];
    const [search, ...fragment] = rest.split("#");
    const parameters = search
      .split("&")
      .map((pair) => {
        const [name, ...text] = pair.split("=");
        return text.length > 0 && SECRET_PARAMETER.test(decodeURIComponentSafely(name)) ? `${name}=${MASK}` : pair;
      })
      .join("&");
    masked = `${head}${parameters}${fragment.length ? `#${fragment.join("#")}` : ""}`;
  }
  return masked;
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function maskString(value: string): string {
  return WEBHOOK_SECRET.test(value) ? MASK : maskURLPassword(value);
}

/** The configuration (or a part of it) with every secret masked; set secrets show as asterisks, unset as null. */
export function maskConfig(value: unknown, key = ""): unknown {
  if (isSecretKey(key) && (typeof value === "string" || Array.isArray(value) || value === null || value === undefined))
    return Array.isArray(value)
      ? value.map(() => MASK)
      : value === undefined || value === null || value === ""
        ? null
        : MASK;
  if (typeof value === "string") return maskString(value);
  if (Array.isArray(value)) return value.map((item) => maskConfig(item));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskConfig(v, k)]));
  return value;
}
