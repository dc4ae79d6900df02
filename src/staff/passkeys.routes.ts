import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { Passkey, SignedIn } from './auth.schemas.ts';
import { passkeyRegistrationOptions } from './commands/passkey-registration-options.ts';
import { passkeySignInOptions } from './commands/passkey-sign-in-options.ts';
import { registerPasskey } from './commands/register-passkey.ts';
import { removePasskey } from './commands/remove-passkey.ts';
import { signInWithPasskey } from './commands/sign-in-with-passkey.ts';
import {
  CreationOptions,
  PasskeyParams,
  PasskeySignInBody,
  RegisterPasskeyBody,
  RequestOptions,
} from './passkeys.schemas.ts';

const TAGS = ['staff'];

/**
 * Passkeys (API.md 12), registered inside `authRoutes`: its origin check covers every write here,
 * and it lends the session helpers (`signedIn`: the cookie's person or `401`; `setSession`).
 */
export const passkeyRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  signedIn: (request: FastifyRequest) => Promise<{ principal: { staffId: number } }>;
  setSession: (reply: FastifyReply, secret: string | null) => FastifyReply;
}> = async (app, { ctx, signedIn, setSession }) => {
  app.post(
    '/passkeys/options',
    {
      schema: {
        operationId: 'passkeyRegistrationOptions',
        summary: 'Start registering a passkey',
        tags: TAGS,
        description:
          'Signed in. WebAuthn creation options (`PublicKeyCredentialCreationOptionsJSON`) for a discoverable credential of the signed-in person, relying party = the host of `PUBLIC_BASE_URL`; the challenge is good once, for 5 minutes. Pass them to `navigator.credentials.create()` (or `startRegistration()` of `@simplewebauthn/browser`).',
        response: { 200: CreationOptions, ...problemResponses('unauthorized', 'forbidden', 'rate_limited') },
      },
    },
    async (request, reply) => {
      const { principal } = await signedIn(request);
      reply.header('cache-control', 'no-store');
      return passkeyRegistrationOptions(ctx, principal.staffId);
    },
  );

  app.post(
    '/passkeys',
    {
      schema: writeSchema({
        operationId: 'registerPasskey',
        summary: 'Register a passkey',
        tags: TAGS,
        description:
          'Signed in. `response` is the authenticator’s answer (`RegistrationResponseJSON`) to options from `POST /auth/passkeys/options`. A response to no open challenge of this person (unknown, used, older than 5 minutes), from another origin or relying party, or otherwise not valid is `400 validation_error` at `/response`, and stores nothing.',
        body: RegisterPasskeyBody,
        response: { 201: Passkey },
        problems: ['validation_error', 'unauthorized', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      const { principal } = await signedIn(request);
      const passkey = await registerPasskey(requestContext(ctx, request), principal.staffId, request.body);
      return reply.code(201).send(passkey);
    },
  );

  app.delete(
    '/passkeys/:id',
    {
      schema: {
        operationId: 'removePasskey',
        summary: 'Remove a passkey',
        tags: TAGS,
        description: 'Signed in. Removes one of one’s own passkeys; any other id is `404`.',
        params: PasskeyParams,
        response: {
          204: Type.Null({ description: 'Removed' }),
          ...problemResponses('validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const { principal } = await signedIn(request);
      await removePasskey(requestContext(ctx, request), principal.staffId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/passkey/options',
    {
      schema: {
        operationId: 'passkeySignInOptions',
        summary: 'Start signing in with a passkey',
        tags: TAGS,
        description:
          'WebAuthn request options (`PublicKeyCredentialRequestOptionsJSON`) for a discoverable credential, `userVerification: "preferred"`; the challenge is good once, for 5 minutes.',
        response: { 200: RequestOptions, ...problemResponses('forbidden', 'rate_limited') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return passkeySignInOptions(ctx);
    },
  );

  app.post(
    '/passkey/sign-in',
    {
      schema: writeSchema({
        operationId: 'signInWithPasskey',
        summary: 'Sign in with a passkey',
        tags: TAGS,
        description:
          'As `POST /auth/sign-in`. `response` is the authenticator’s answer (`AuthenticationResponseJSON`) to options from `POST /auth/passkey/options`. An unknown passkey, an account that is not active, a challenge unknown, used or older than 5 minutes, another origin or relying party, a bad signature or a counter that did not move on: all the same `401 sign_in_failed`. A body not shaped as WebAuthn’s JSON is `400`.',
        body: PasskeySignInBody,
        response: { 200: SignedIn },
        problems: ['validation_error', 'sign_in_failed', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      const { secret, answer } = await signInWithPasskey(requestContext(ctx, request), request.body.response);
      setSession(reply, secret);
      return answer;
    },
  );
};
