import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AppContext, requestContext } from '../../context.ts';
import { isDatabaseUnavailable } from '../../infra/http/database-problems.ts';
import { AppError } from '../../infra/http/problems.ts';
import { type AjvError, ajvFaults, faultEntries } from '../../infra/http/schema-errors.ts';
import { operatorAuthenticatorOf } from '../../operator-access/operator-auth.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { ACTIONS } from './actions.ts';
import { AlpineBitsForm, AlpineBitsHeaders, MAX_REQUEST_BYTES, TextAnswer } from './alpinebits.schemas.ts';
import { answerAlpineBits, errorText } from './server.ts';

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
 * What a form the schema refused says, as the standard's `ERROR:` text: an action it does not know
 * (or none) in the words `server.ts` uses for it, else the first fault of the form's fields.
 */
function formRefusal(validation: AjvError[], fallback: string): string {
  const faults = faultEntries(ajvFaults(validation));
  if (faults.some((f) => f.path === '/action')) return 'unknown or missing action';
  const first = faults[0];
  return first ? `the parameter ${(first.path ?? '').slice(1) || 'form'} ${first.message}` : fallback;
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
    // Shedding load or shutting down (load-shedding.ts), or the database out of reach: 503 with
    // Retry-After as every other route answers it (AlpineBits allows any HTTP status for a refusal).
    if (status === 503 || isDatabaseUnavailable(error)) {
      if (status === 503)
        request.log.warn({ detail: error.message }, 'AlpineBits request refused: service unavailable');
      else request.log.error({ err: error }, 'AlpineBits request failed: the database is unavailable');
      if (!reply.hasHeader('retry-after')) reply.header('retry-after', status === 503 ? '1' : '5');
      const answer = errorText(503, 'service unavailable; retry after the time given in Retry-After');
      return reply.code(503).type(answer.contentType).send(answer.body);
    }
    const known = typeof status === 'number' && status >= 400 && status < 500;
    if (!known) request.log.error({ err: error }, 'AlpineBits request failed');
    const validation = (error as { validation?: AjvError[] }).validation;
    const message = validation ? formRefusal(validation, error.message) : error.message;
    const answer = known
      ? errorText(status === 415 ? 400 : status, message)
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
    // What a channel changes through its key is the channel's act in the audit trail (API.md 12).
    const key = request.alpinebitsKey;
    request.auditActor = { type: 'channel', id: key.id, name: `AlpineBits: ${key.name ?? key.id}` };
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
          'request, is `400` with a text body starting `ERROR:`. Rules the form’s schema cannot say:',
          '`X-AlpineBits-ClientProtocolVersion: 2022-10` is required for every action but the handshake;',
          'the key needs the action’s scope (`403`); `request` must be a well-formed XML document without a',
          'DTD, of the action’s message; `HotelCode` must be one of the key’s hotels and `InvTypeCode` one',
          'of the hotel’s room types (else the standard’s `Errors`). Every refusal, `401`, `409`/`422` of',
          'the `Idempotency-Key` and the `503` of shedding load or shutting down included, is text',
          'starting `ERROR:`, never problem+json.',
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
          409: TextAnswer('`idempotency_in_progress`: the same `Idempotency-Key` is still being answered'),
          422: TextAnswer('`idempotency_key_reused`: the `Idempotency-Key` was used with another body'),
          429: TextAnswer('Too many failed authentications from this address'),
          500: TextAnswer('Internal error'),
          503: TextAnswer(
            'Shedding load, shutting down, or the database out of reach: retry after `Retry-After`',
          ),
        },
      },
    },
    async (request, reply) => {
      const key = request.alpinebitsKey as Principal;
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const answer = await answerAlpineBits(requestContext(ctx, request), {
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
