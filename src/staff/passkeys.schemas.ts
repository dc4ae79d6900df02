import { Type } from '@sinclair/typebox';
import { Name } from '../infra/http/text-schemas.ts';

/**
 * WebAuthn's JSON forms (WebAuthn Level 3, `PublicKeyCredential.toJSON()`, as
 * `@simplewebauthn/browser` sends them). Binary values are base64url: the pattern refuses anything
 * else (U+0000 included), and bounds keep a body small; the contents are judged by the command.
 */
const Base64Url = (description: string, maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$', description });

const Transport = Type.Union(
  ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'].map((t) => Type.Literal(t)),
);
const AuthenticatorAttachment = Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]);
const ClientExtensionResults = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'the client’s extension outputs, as `getClientExtensionResults()` gives them (not used)',
  },
);

const credentialId = Base64Url('the credential id', 1400);

export const RegistrationResponse = Type.Object(
  {
    id: credentialId,
    rawId: credentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url('the client data', 4096),
        attestationObject: Base64Url('the attestation object', 16384),
        authenticatorData: Type.Optional(Base64Url('the authenticator data', 8192)),
        transports: Type.Optional(Type.Array(Transport, { maxItems: 10 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(Base64Url('the public key (SPKI)', 4096)),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: ClientExtensionResults,
    authenticatorAttachment: Type.Optional(AuthenticatorAttachment),
  },
  { additionalProperties: false, title: 'RegistrationResponseJSON' },
);

export const AuthenticationResponse = Type.Object(
  {
    id: credentialId,
    rawId: credentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url('the client data', 4096),
        authenticatorData: Base64Url('the authenticator data', 8192),
        signature: Base64Url('the signature', 1024),
        userHandle: Type.Optional(Base64Url('the user handle the passkey holds', 128)),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: ClientExtensionResults,
    authenticatorAttachment: Type.Optional(AuthenticatorAttachment),
  },
  { additionalProperties: false, title: 'AuthenticationResponseJSON' },
);

export const RegisterPasskeyBody = Type.Object(
  {
    response: RegistrationResponse,
    name: Type.Optional(
      Name({
        maxLength: 100,
        description: 'what the person calls it (default: `Passkey`)',
        examples: ['Desk laptop'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const PasskeySignInBody = Type.Object(
  { response: AuthenticationResponse },
  { additionalProperties: false },
);

export const PasskeyParams = Type.Object({
  id: Type.String({ pattern: '^pk_[0-9a-z]{1,60}$', description: 'passkey id `pk_…`' }),
});

/** The WebAuthn options are answered as the library builds them; their shape is WebAuthn's. */
export const CreationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ type: Type.String(), alg: Type.Integer() })),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          type: Type.String(),
          transports: Type.Optional(Type.Array(Type.String())),
        }),
      ),
    ),
    authenticatorSelection: Type.Optional(
      Type.Object({
        authenticatorAttachment: Type.Optional(Type.String()),
        requireResidentKey: Type.Optional(Type.Boolean()),
        residentKey: Type.Optional(Type.String()),
        userVerification: Type.Optional(Type.String()),
      }),
    ),
    hints: Type.Optional(Type.Array(Type.String())),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
  },
  { title: 'PublicKeyCredentialCreationOptionsJSON' },
);

export const RequestOptions = Type.Object(
  {
    challenge: Type.String(),
    timeout: Type.Optional(Type.Integer()),
    rpId: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          type: Type.String(),
          transports: Type.Optional(Type.Array(Type.String())),
        }),
      ),
    ),
    userVerification: Type.Optional(Type.String()),
  },
  { title: 'PublicKeyCredentialRequestOptionsJSON' },
);
