import { createHmac } from "node:crypto";
import type { Agent } from "./agent.ts";

// RFC 6238 computed on the test's side, from the secret in the otpauth URI the daemon hands out: the
// daemon's own TOTP code is never used to check itself.

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, "")) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The HMAC key inside an otpauth URI. */
export function keyOf(totpURI: string): Buffer {
  return base32Decode(new URL(totpURI).searchParams.get("secret") ?? "");
}

/** The 6-digit code for `key` at `now` (epoch ms), `offset` steps away. */
export function totp(key: Buffer, now: number, offset = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000) + offset));
  const mac = createHmac("sha1", key).update(counter).digest();
  const start = mac[mac.length - 1] & 15;
  return String((mac.readUInt32BE(start) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** Enable two-factor for a signed-in agent and turn it on with a first code; the key and backup codes. */
export async function enrol(agent: Agent, password: string, now: number) {
  const enabled = await agent.post("/two-factor/enable", { password });
  if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.status} ${enabled.text}`);
  const key = keyOf(enabled.body.totpURI);
  const verified = await agent.post("/two-factor/verify-totp", { code: totp(key, now) });
  if (verified.status !== 200) throw new Error(`first verification failed: ${verified.status} ${verified.text}`);
  return { key, backupCodes: enabled.body.backupCodes as string[], totpURI: enabled.body.totpURI as string };
}
