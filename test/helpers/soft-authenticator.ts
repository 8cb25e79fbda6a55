import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

// A software WebAuthn authenticator for tests: ES256 keys from node:crypto, authenticator data, client
// data and "none" attestation objects built byte by byte as a browser and a platform authenticator would.
// Every field can be bent (origin, rp id, flags, counter, challenge) to play the attacker. The tiny CBOR
// encoder below is for building test inputs only; the daemon decodes with @simplewebauthn/server.

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** CBOR (RFC 8949) for the few types WebAuthn structures use: integers, byte and text strings, arrays, maps. */
export function cborEncode(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cborEncode)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([cborHead(5, entries.length), ...entries.flatMap(([k, v]) => [cborEncode(k), cborEncode(v)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  coseKey: Buffer;
  counter: number;
}

/** What a ceremony may bend: what the browser reports (origin, type) and what the authenticator signs. */
export interface Bend {
  origin?: string;
  rpId?: string;
  challenge?: string;
  flags?: number;
  /** The signature counter to report (default: one more than last time; a passkey that never counts: 0). */
  counter?: number;
  type?: string;
  transports?: string[] | null;
  /** Sign an assertion with this credential (default: the last one created). */
  credential?: Credential;
  userHandle?: string;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  /** `counting: false` is a synced passkey that always reports 0. */
  constructor(
    readonly origin = "http://localhost:3000",
    readonly rpId = "localhost",
    readonly counting = true,
  ) {}

  get last(): Credential {
    const credential = this.credentials.at(-1);
    if (!credential) throw new Error("no credential yet");
    return credential;
  }

  private clientData(type: string, challenge: string, bend: Bend): Buffer {
    return Buffer.from(
      JSON.stringify({ type: bend.type ?? type, challenge, origin: bend.origin ?? this.origin, crossOrigin: false }),
    );
  }

  private nextCounter(credential: Credential, bend: Bend): number {
    if (bend.counter !== undefined) return bend.counter;
    if (!this.counting) return 0;
    credential.counter += 1;
    return credential.counter;
  }

  /** navigator.credentials.create() answered: a RegistrationResponseJSON for the creation options. */
  register(options: { challenge: string }, bend: Bend = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = cborEncode(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const credential: Credential = { id: randomBytes(16), privateKey, coseKey, counter: 0 };
    const counter = this.nextCounter(credential, bend);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.authDataHead(bend, FLAGS.UP | FLAGS.UV | FLAGS.AT, counter),
      Buffer.alloc(16), // AAGUID: zeros, as most software and platform authenticators send with "none"
      idLength,
      credential.id,
      coseKey,
    ]);
    this.credentials.push(credential);
    const clientDataJSON = this.clientData("webauthn.create", bend.challenge ?? options.challenge, bend);
    const attestationObject = cborEncode({ fmt: "none", attStmt: {}, authData });
    const transports = bend.transports === undefined ? ["internal"] : bend.transports;
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        ...(transports ? { transports } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get() answered: an AuthenticationResponseJSON for the request options. */
  assert(options: { challenge: string }, bend: Bend = {}) {
    const credential = bend.credential ?? this.last;
    const counter = this.nextCounter(credential, bend);
    const authData = this.authDataHead(bend, FLAGS.UP | FLAGS.UV, counter);
    const clientDataJSON = this.clientData("webauthn.get", bend.challenge ?? options.challenge, bend);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        authenticatorData: b64url(authData),
        clientDataJSON: b64url(clientDataJSON),
        signature: b64url(signature),
        userHandle: bend.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private authDataHead(bend: Bend, defaultFlags: number, counter: number): Buffer {
    const head = Buffer.alloc(37);
    sha256(bend.rpId ?? this.rpId).copy(head, 0);
    head[32] = bend.flags ?? defaultFlags;
    head.writeUInt32BE(counter, 33);
    return head;
  }
}
