import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AppError } from '../infra/http/problems.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import {
  cookieAllowed,
  createSessionAuthenticator,
  requestOrigin,
  sessionCookie,
  sessionCookieOf,
  sessionHash,
} from '../operator-access/session-credential.ts';
import {
  ChangePasswordBody,
  Me,
  NewPasswordBody,
  ResetRequestBody,
  SignedIn,
  SignInBody,
  TokenParams,
} from './auth.schemas.ts';
import { acceptInvitation } from './commands/accept-invitation.ts';
import { changePassword } from './commands/change-password.ts';
import { readMe } from './commands/read-me.ts';
import { requestPasswordReset } from './commands/request-password-reset.ts';
import { resetPassword } from './commands/reset-password.ts';
import { signIn } from './commands/sign-in.ts';
import { signOut } from './commands/sign-out.ts';
import { passkeyRoutes } from './passkeys.routes.ts';

const TAGS = ['staff'];
const NoContent = (description: string) => Type.Null({ description });

/**
 * `/api/v1/auth` (API.md 12): people sign in with no other credential and get the session cookie.
 * Every write here is refused from another origin's page (`403`), sign-in included, so no page
 * elsewhere can sign a browser in or out; the signed-in routes take only the cookie.
 */
export const authRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const publicOrigin = new URL(ctx.config.publicBaseUrl).origin;
  const sessions = createSessionAuthenticator({
    db: ctx.db,
    now: () => ctx.clock.now(),
    idleMinutes: ctx.config.staffSessionIdleMinutes,
  });

  app.addHook('onRequest', async (request) => {
    if (
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      requestOrigin(request, publicOrigin) === 'cross'
    ) {
      throw new AppError('forbidden', 'Sign-in requests must come from the service’s own pages.');
    }
  });

  /** The signed-in person of a request, or `401`. */
  async function signedIn(request: FastifyRequest) {
    const secret = sessionCookieOf(request.headers.cookie);
    if (secret !== null && !cookieAllowed(request, publicOrigin)) {
      throw new AppError(
        'forbidden',
        'A change made with the session cookie must come from the service’s own pages.',
      );
    }
    const principal = secret === null ? null : await sessions.authenticate(secret);
    if (!principal || secret === null) throw new AppError('unauthorized', 'Sign in first.');
    return { principal, secret };
  }

  const setSession = (reply: FastifyReply, secret: string | null) =>
    reply
      .header('set-cookie', sessionCookie(secret, ctx.config.publicBaseUrl))
      .header('cache-control', 'no-store');

  await app.register(passkeyRoutes, { ctx, signedIn, setSession });

  app.post(
    '/invitations/:token/accept',
    {
      schema: writeSchema({
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation',
        tags: TAGS,
        description:
          'Sets the password (12–256 characters, zxcvbn score ≥ 3; else `400` at `/password`, and the link stays good), makes the account `active` and signs in. An unknown, used or expired token is `404`.',
        params: TokenParams,
        body: NewPasswordBody,
        response: { 201: SignedIn },
        problems: ['validation_error', 'not_found', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      const { secret, answer } = await acceptInvitation(
        requestContext(ctx, request),
        request.params.token,
        request.body.password,
      );
      setSession(reply, secret).code(201);
      return answer;
    },
  );

  app.post(
    '/sign-in',
    {
      schema: writeSchema({
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password',
        tags: TAGS,
        description:
          'Sets `innkeep_session` (HttpOnly, SameSite=Strict, Secure under https). Any failure is the same `401 sign_in_failed`; 10 failures for one e-mail within 15 minutes make it `429` until the window passes.',
        body: SignInBody,
        response: { 200: SignedIn },
        problems: ['validation_error', 'sign_in_failed', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      const { secret, answer } = await signIn(
        requestContext(ctx, request),
        request.body.email,
        request.body.password,
      );
      setSession(reply, secret);
      return answer;
    },
  );

  app.post(
    '/sign-out',
    {
      schema: {
        operationId: 'signOut',
        summary: 'Sign out',
        tags: TAGS,
        description: 'Ends the session (on every process at once) and clears the cookie.',
        response: {
          204: NoContent('Signed out'),
          ...problemResponses('unauthorized', 'forbidden', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const { secret } = await signedIn(request);
      await signOut(requestContext(ctx, request), secret);
      return setSession(reply, null).code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      schema: {
        operationId: 'readMe',
        summary: 'The signed-in person',
        tags: TAGS,
        description:
          'The person of the session cookie, their role’s scopes, their hotels and passkeys; `401` without a live session.',
        response: { 200: Me, ...problemResponses('unauthorized', 'rate_limited') },
      },
    },
    async (request, reply) => {
      const { principal } = await signedIn(request);
      reply.header('cache-control', 'no-store');
      return readMe(ctx, principal.staffId);
    },
  );

  app.post(
    '/password',
    {
      schema: writeSchema({
        operationId: 'changePassword',
        summary: 'Change one’s password',
        tags: TAGS,
        description:
          'Signed in. The current password is checked (`400`); every other session of the person ends.',
        body: ChangePasswordBody,
        response: { 204: NoContent('Changed') },
        problems: ['validation_error', 'unauthorized', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      const { principal, secret } = await signedIn(request);
      await changePassword(
        requestContext(ctx, request),
        principal.staffId,
        sessionHash(secret),
        request.body,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/password-reset',
    {
      schema: writeSchema({
        operationId: 'requestPasswordReset',
        summary: 'Ask for a password reset link',
        tags: TAGS,
        description:
          'Always `202`, whoever the e-mail is; an active account gets `staff_password_reset` with a one-time link `PUBLIC_BASE_URL/desk/reset#<token>` valid one hour.',
        body: ResetRequestBody,
        response: { 202: NoContent('Accepted') },
        problems: ['validation_error', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      await requestPasswordReset(requestContext(ctx, request), request.body.email);
      // No body: the answer is the status alone, the same whoever the e-mail is.
      return reply.code(202).send(undefined as unknown as null);
    },
  );

  app.post(
    '/password-reset/:token',
    {
      schema: writeSchema({
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset link',
        tags: TAGS,
        description:
          'The token used once; every session of the person ends. Unknown, used or expired: `404`.',
        params: TokenParams,
        body: NewPasswordBody,
        response: { 204: NoContent('Changed') },
        problems: ['validation_error', 'not_found', 'forbidden', 'rate_limited'],
      }),
    },
    async (request, reply) => {
      await resetPassword(requestContext(ctx, request), request.params.token, request.body.password);
      return reply.code(204).send(null);
    },
  );
};
