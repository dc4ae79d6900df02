import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type CBORType, encodeCBOR } from '@levischuck/tiny-cbor';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64u = (data: Uint8Array) => Buffer.from(data).toString('base64url');

interface Overrides {
  /** The origin the client data names (default: the authenticator's). */
  origin?: string;
  /** The relying party id whose hash the authenticator data carries. */
  rpId?: string;
  /** The challenge answered (default: the options'). */
  challenge?: string;
  /** Sign with this key instead of the credential's (a forgery). */
  signWith?: KeyObject;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
}

/**
 * A WebAuthn authenticator in software, for API tests: one ES256 (P-256) credential, `none`
 * attestation, its answers built as a browser would (client data JSON, CBOR attestation object,
 * authenticator data, a DER ECDSA signature over authenticatorData ‖ SHA-256(clientDataJSON)).
 */
export class SoftwareAuthenticator {
  readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  readonly credentialId = randomBytes(16);
  counter = 0;
  userHandle: string | undefined;

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {}

  get id(): string {
    return b64u(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return encodeCBOR(
      new Map<number, CBORType>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.cosePublicKey()));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** Answers creation options (`POST /auth/passkeys/options`) as `RegistrationResponseJSON`. */
  register(options: { challenge: string; user: { id: string } }, o: Overrides = {}) {
    this.userHandle = options.user.id;
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = this.authenticatorData(o.rpId ?? this.rpId, 0x45, this.counter, true);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CBORType>()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      o.challenge ?? options.challenge,
      o.origin ?? this.origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers request options (`POST /auth/passkey/options`) as `AuthenticationResponseJSON`. */
  authenticate(options: { challenge: string }, o: Overrides = {}) {
    this.counter = o.counter ?? this.counter + 1;
    const authData = this.authenticatorData(o.rpId ?? this.rpId, 0x05, this.counter, false);
    const clientDataJSON = this.clientData(
      'webauthn.get',
      o.challenge ?? options.challenge,
      o.origin ?? this.origin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      o.signWith ?? this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
