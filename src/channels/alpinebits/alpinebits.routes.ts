import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../infra/http/problems.ts';
import { operatorAuthenticatorOf } from '../../operator-access/operator-auth.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { ACTIONS } from './actions.ts';
import { AlpineBitsForm, AlpineBitsHeaders, TextAnswer } from './alpinebits.schemas.ts';
import { answerAlpineBits, errorText } from './server.ts';

/** The largest `request` accepted: rate plans of a big hotel run to a few megabytes. */
const MAX_REQUEST_BYTES = 5 * 1024 * 1024;
const BASIC_REALM = 'Basic realm="AlpineBits", charset="UTF-8"';

/** The OpenAPI security scheme of the AlpineBits endpoint (registered by app.ts). */
export const ALPINEBITS_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'basic',
  description:
    'HTTP Basic authentication (AlpineBits 2): any user name, an operator key `ik_…` as the password. No or an unknown key: `401`.',
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    alpinebitsKey?: Principal;
  }
}

/** The password of `Authorization: Basic …` (the user name is free: the operator key decides). */
function basicPassword(header: string | undefined): string | null {
  const match = header === undefined ? null : /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : decoded.slice(colon + 1);
}

/**
 * `POST /api/v1/alpinebits` (docs/api.md §9.2): AlpineBits HotelData 2022-10 for PMSs and channel
 * managers. HTTP only: Basic authentication with an operator key as the password (before the body
 * is read), the multipart form, and every refusal as AlpineBits text (`ERROR:…`), never
 * problem+json; the protocol itself is `channels/alpinebits/`.
 */
export const alpineBitsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const authenticator = operatorAuthenticatorOf(ctx);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fieldSize: MAX_REQUEST_BYTES, fileSize: MAX_REQUEST_BYTES, files: 2, fields: 4, parts: 6 },
    // Clients send `request` as a plain field or as a file part (curl -F request=@file.xml): both are text.
    async onFile(part) {
      (part as unknown as { value: string }).value = (await part.toBuffer()).toString('utf8');
    },
  });

  app.setErrorHandler((error: Error, request, reply) => {
    const status = error instanceof AppError ? error.status : (error as { statusCode?: number }).statusCode;
    if (error instanceof AppError && error.headers) reply.headers(error.headers);
    if (status === 401) reply.header('www-authenticate', BASIC_REALM);
    const known = typeof status === 'number' && status >= 400 && status < 500;
    if (!known) request.log.error({ err: error }, 'AlpineBits request failed');
    const answer = known
      ? errorText(status === 415 ? 400 : status, error.message)
      : errorText(500, 'internal error');
    return reply.code(answer.status).type(answer.contentType).send(answer.body);
  });

  app.addHook('onRequest', async (request, reply) => {
    // Answers hold guests' reservations and belong to one key: never cached, refusals included.
    reply.header('cache-control', 'no-store');
    const password = basicPassword(request.headers.authorization);
    if (password === null) {
      throw new AppError('unauthorized', 'Send HTTP Basic authentication whose password is an operator key.');
    }
    request.alpinebitsKey = await authenticator.authenticate(`Bearer ${password}`, request.ip);
  });

  app.post(
    '',
    {
      schema: {
        operationId: 'alpineBits',
        summary: 'AlpineBits HotelData 2022-10',
        tags: ['Channels'],
        description: [
          'The AlpineBits HotelData 2022-10 server (docs.alpinebits.org): `multipart/form-data` with the',
          'fields `action` and `request`, headers `X-AlpineBits-ClientProtocolVersion: 2022-10` and',
          '`X-AlpineBits-ClientID`, HTTP Basic authentication whose password is an operator key. Actions:',
          `${ACTIONS.map((a) => `\`${a.action}\` (${a.scope === 'any' ? 'any key' : `scope \`${a.scope}\``})`).join(', ')}.`,
          '`HotelCode` is the hotel id, `InvTypeCode` the room type id. Answers the action’s OTA document',
          '(`Errors` for a refusal the standard defines); an unknown action or version, or an unreadable',
          'request, is `400` with a text body starting `ERROR:`.',
        ].join(' '),
        consumes: ['multipart/form-data'],
        headers: AlpineBitsHeaders,
        body: AlpineBitsForm,
        security: [{ alpineBitsBasic: [] }],
        response: {
          200: {
            description: 'The action’s OTA response document',
            content: { 'application/xml': { schema: Type.String() } },
          },
          400: TextAnswer(
            'Unknown or missing action, unsupported version, unreadable request (a DTD included)',
          ),
          401: TextAnswer('No or an unknown operator key'),
          403: TextAnswer('The key lacks the scope of the action'),
          413: TextAnswer('The request is too large'),
          429: TextAnswer('Too many failed authentications from this address'),
          500: TextAnswer('Internal error'),
        },
      },
    },
    async (request, reply) => {
      const key = request.alpinebitsKey as Principal;
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const answer = await answerAlpineBits(ctx, {
        version: header('x-alpinebits-clientprotocolversion')?.trim(),
        clientId: header('x-alpinebits-clientid'),
        action: request.body.action,
        request: request.body.request,
        auth: { keyId: key.id, scopes: key.scopes, hotelIds: key.hotelIds },
      });
      return reply
        .code(answer.status as 200)
        .type(answer.contentType)
        .send(answer.body);
    },
  );
};
