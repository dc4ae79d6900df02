import { Type } from '@sinclair/typebox';

export const JwkSchema = Type.Object(
  {
    kty: Type.Literal('OKP'),
    crv: Type.Literal('Ed25519'),
    x: Type.String({ description: 'the public key, base64url' }),
    kid: Type.String({ description: 'key id (RFC 7638 thumbprint); the `kid` header of signatures it made' }),
    alg: Type.Literal('EdDSA'),
    use: Type.Literal('sig'),
  },
  { title: 'Jwk', description: 'An Ed25519 public key (RFC 8037)' },
);

export const JwksSchema = Type.Object(
  {
    keys: Type.Array(JwkSchema, {
      description: 'the current key first, then retired keys whose signatures have not expired yet',
    }),
  },
  {
    title: 'Jwks',
    description: 'JSON Web Key Set (RFC 7517): public keys only',
    examples: [
      {
        keys: [
          {
            kty: 'OKP',
            crv: 'Ed25519',
            x: '4UCAty6NQ1CSsbd2uvQjQo4mYnviy_oZx_dJQ2YprB4',
            kid: '3xeQjYNBrg4P_88tLN3dDDynC_ARPrPTDWnD07MeSmM',
            alg: 'EdDSA',
            use: 'sig',
          },
        ],
      },
    ],
  },
);
