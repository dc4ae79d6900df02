import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { JwksSchema } from './signing.schemas.ts';
import type { SigningKeyStore } from './signing-key-store.ts';

/** Verifiers cache the set; after a rotation they refetch on an unknown kid (as JOSE libraries do). */
const CACHE_CONTROL = 'public, max-age=300';

/** `GET /.well-known/jwks.json`: the public keys that verify check-in session signatures. */
export const signingRoutes: FastifyPluginAsyncTypebox<{ ctx: { signer: SigningKeyStore } }> = async (
  app,
  { ctx: { signer } },
) => {
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        operationId: 'getJwks',
        tags: ['service'],
        summary: 'Public keys that verify session signatures',
        description: [
          'The JSON Web Key Set of the Ed25519 keys that sign check-in sessions (`signature` of a session,',
          'a compact JWS with `alg` `EdDSA` and a `kid` header). Public keys only. After a key rotation the',
          'previous keys stay listed until every signature they made has expired. Cacheable; refetch when',
          'a signature names a `kid` that is not in your cached copy. Supports `If-None-Match`.',
        ].join(' '),
        response: {
          200: JwksSchema,
          304: Type.Null({ description: 'Not modified (`If-None-Match` matched the `ETag`)' }),
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const body = { keys: await signer.publishedKeys() };
      const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22)}"`;
      reply.header('cache-control', CACHE_CONTROL).header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return body;
    },
  );
};
