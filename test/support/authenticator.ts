// A software WebAuthn authenticator for API tests: a P-256 key of node:crypto per credential, and
// real responses built from the server's options as a browser and a device build them (client
// data JSON, authenticator data, a "none" attestation in CBOR, an ES256 signature). Nothing of
// the server's WebAuthn library is used or mocked; what it checks is what a device would send.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Just enough CBOR (RFC 8949) for a COSE key and an attestation object. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    throw new Error('too long for this encoder');
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cannot encode ${typeof value}`);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** The user handle the server gave at registration (base64url). */
  userHandle: string;
  counter: number;
}

export interface CeremonyTweaks {
  /** The origin the "browser" reports (default: the server's). */
  origin?: string;
  /** The counter signed (default: the credential's next). */
  counter?: number;
  userVerified?: boolean;
}

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** An authenticator bound to one origin (the service's PUBLIC_BASE_URL). */
export function softAuthenticator(origin: string) {
  const rpId = new URL(origin).hostname;
  return {
    rpId,
    /** Answers registration options: a new credential, and the JSON of `navigator.credentials.create()`. */
    register(options: any, tweaks: CeremonyTweaks = {}): { credential: SoftCredential; response: any } {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const id = randomBytes(32);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cose]);
      const flags = FLAG_UP | FLAG_AT | (tweaks.userVerified === false ? 0 : FLAG_UV);
      const authData = authenticatorData(rpId, flags, tweaks.counter ?? 0, attested);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      const credential = { id, privateKey, userHandle: options.user?.id ?? '', counter: tweaks.counter ?? 0 };
      return {
        credential,
        response: {
          id: b64url(id),
          rawId: b64url(id),
          type: 'public-key',
          clientExtensionResults: {},
          authenticatorAttachment: 'platform',
          response: {
            clientDataJSON: b64url(clientData('webauthn.create', options.challenge, tweaks.origin ?? origin)),
            attestationObject: b64url(attestationObject),
            transports: ['internal'],
          },
        },
      };
    },

    /** Answers sign-in options with `credential`: the JSON of `navigator.credentials.get()`. */
    assert(credential: SoftCredential, options: any, tweaks: CeremonyTweaks = {}): any {
      const counter = tweaks.counter ?? ++credential.counter;
      const flags = FLAG_UP | (tweaks.userVerified === false ? 0 : FLAG_UV);
      const authData = authenticatorData(rpId, flags, counter, undefined);
      const data = clientData('webauthn.get', options.challenge, tweaks.origin ?? origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
