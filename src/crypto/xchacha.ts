import { createHash, timingSafeEqual } from "node:crypto";

// Opening what Better Auth sealed with its secret (TOTP secrets, backup codes): XChaCha20-Poly1305 under
// SHA-256(secret), written as hex of nonce (24 bytes) ‖ ciphertext ‖ tag (16 bytes). Bun's node:crypto has
// no ChaCha20 cipher, so the construction is written out here (RFC 8439; draft-irtf-cfrg-xchacha for the
// extended nonce). It opens a few short values once, at import, so speed does not matter.

const rotate = (value: number, bits: number) => ((value << bits) | (value >>> (32 - bits))) >>> 0;

function quarterRound(s: Uint32Array, a: number, b: number, c: number, d: number): void {
  s[a] = (s[a] + s[b]) >>> 0;
  s[d] = rotate(s[d] ^ s[a], 16);
  s[c] = (s[c] + s[d]) >>> 0;
  s[b] = rotate(s[b] ^ s[c], 12);
  s[a] = (s[a] + s[b]) >>> 0;
  s[d] = rotate(s[d] ^ s[a], 8);
  s[c] = (s[c] + s[d]) >>> 0;
  s[b] = rotate(s[b] ^ s[c], 7);
}

function doubleRounds(s: Uint32Array): void {
  for (let round = 0; round < 10; round++) {
    quarterRound(s, 0, 4, 8, 12);
    quarterRound(s, 1, 5, 9, 13);
    quarterRound(s, 2, 6, 10, 14);
    quarterRound(s, 3, 7, 11, 15);
    quarterRound(s, 0, 5, 10, 15);
    quarterRound(s, 1, 6, 11, 12);
    quarterRound(s, 2, 7, 8, 13);
    quarterRound(s, 3, 4, 9, 14);
  }
}

function initialState(key: Buffer, words: Buffer): Uint32Array {
  const s = new Uint32Array(16);
  s.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
  for (let i = 0; i < 8; i++) s[4 + i] = key.readUInt32LE(i * 4);
  for (let i = 0; i < 4; i++) s[12 + i] = words.readUInt32LE(i * 4);
  return s;
}

/** HChaCha20: a 32-byte subkey from a key and the first 16 bytes of the extended nonce. */
export function hchacha20(key: Buffer, nonce16: Buffer): Buffer {
  const s = initialState(key, nonce16);
  doubleRounds(s);
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i++) out.writeUInt32LE(s[i], i * 4);
  for (let i = 0; i < 4; i++) out.writeUInt32LE(s[12 + i], 16 + i * 4);
  return out;
}

/** The ChaCha20 key stream block for (key, counter, 12-byte nonce). */
function chachaBlock(key: Buffer, counter: number, nonce: Buffer): Buffer {
  const words = Buffer.alloc(16);
  words.writeUInt32LE(counter, 0);
  nonce.copy(words, 4);
  const initial = initialState(key, words);
  const s = initial.slice();
  doubleRounds(s);
  const out = Buffer.alloc(64);
  for (let i = 0; i < 16; i++) out.writeUInt32LE((s[i] + initial[i]) >>> 0, i * 4);
  return out;
}

const littleEndian = (bytes: Buffer) => BigInt(`0x${Buffer.from(bytes).reverse().toString("hex") || "0"}`);

function poly1305(oneTimeKey: Buffer, message: Buffer): Buffer {
  const r = littleEndian(oneTimeKey.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = littleEndian(oneTimeKey.subarray(16, 32));
  const p = (1n << 130n) - 5n;
  let accumulator = 0n;
  for (let i = 0; i < message.length; i += 16) {
    const block = message.subarray(i, i + 16);
    accumulator = ((accumulator + littleEndian(block) + (1n << BigInt(8 * block.length))) * r) % p;
  }
  const tag = (accumulator + s) & ((1n << 128n) - 1n);
  return Buffer.from(tag.toString(16).padStart(32, "0"), "hex").reverse();
}

const pad16 = (length: number) => Buffer.alloc((16 - (length % 16)) % 16);

/** RFC 8439 AEAD decryption without associated data; null when the tag does not match. */
function openChaCha20Poly1305(key: Buffer, nonce: Buffer, ciphertext: Buffer, tag: Buffer): Buffer | null {
  const lengths = Buffer.alloc(16);
  lengths.writeBigUInt64LE(BigInt(ciphertext.length), 8);
  const expected = poly1305(
    chachaBlock(key, 0, nonce).subarray(0, 32),
    Buffer.concat([ciphertext, pad16(ciphertext.length), lengths]),
  );
  if (!timingSafeEqual(expected, tag)) return null;
  const plain = Buffer.alloc(ciphertext.length);
  for (let offset = 0; offset < ciphertext.length; offset += 64) {
    const stream = chachaBlock(key, 1 + offset / 64, nonce);
    for (let i = offset; i < Math.min(offset + 64, ciphertext.length); i++)
      plain[i] = ciphertext[i] ^ stream[i - offset];
  }
  return plain;
}

/** Better Auth's symmetricDecrypt: the plaintext, or null when the secret is not the one it was sealed with. */
export function openBetterAuthSealed(secret: string, sealedHex: string): string | null {
  if (!/^[0-9a-f]+$/i.test(sealedHex) || sealedHex.length < 2 * (24 + 16)) return null;
  const sealed = Buffer.from(sealedHex, "hex");
  const nonce = sealed.subarray(0, 24);
  const key = hchacha20(createHash("sha256").update(secret).digest(), nonce.subarray(0, 16));
  const ietfNonce = Buffer.concat([Buffer.alloc(4), nonce.subarray(16)]);
  const plain = openChaCha20Poly1305(
    key,
    ietfNonce,
    sealed.subarray(24, sealed.length - 16),
    sealed.subarray(sealed.length - 16),
  );
  return plain === null ? null : plain.toString("utf8");
}
