/**
 * What every operation does because of the HTTP layer, not its feature, written into the OpenAPI
 * document once here rather than repeated in each route: the request-id header on every answer,
 * `Idempotency-Key` on every POST, the body limits (413/415) wherever a body is read, the rate
 * limit's 429 with its headers, `Retry-After` on 429 and 503, and `security: []` on operations that
 * need no credential. Routes still declare their own statuses and feature headers (ETag, Location).
 */

import { RATE_LIMIT_EXEMPT } from './rate-limit.ts';
import { IdempotencyKeySchema } from './write-schema.ts';

type Json = Record<string, unknown>;
type Operation = {
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { required?: boolean };
  [OPTIONAL_BODY_MARK]?: boolean;
  responses?: Record<string, Json>;
};

const OPTIONAL_BODY_MARK = 'x-optional-body';

/**
 * Spread into a route's schema whose body may be left out (cancel, arrive, no-show: no body means
 * the defaults). @fastify/swagger marks every declared body `required`; this mark, removed from the
 * document, makes it optional there. The route itself reads a missing body as `{}` (preValidation).
 */
export const OPTIONAL_BODY = { [OPTIONAL_BODY_MARK]: true } as const;

/** Spread into the options of a route whose schema has `OPTIONAL_BODY`: no body reads as `{}`. */
export const optionalBody = {
  preValidation: async (request: { body: unknown }) => {
    request.body ??= {};
  },
};

const header = (description: string, schema: Json = { type: 'string' }, required = false) => ({
  description,
  schema,
  ...(required ? { required: true } : {}),
});

const REQUEST_ID = header(
  'The caller’s `X-Request-Id` when acceptable, else a generated one.',
  { type: 'string' },
  true,
);
const RETRY_AFTER = header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': header(
    'One item per limit (`general` per client address; `operator` per operator key on the operator API): `"general";q=<quota>;w=<window seconds>`.',
  ),
  RateLimit: header('One item per limit: `"general";r=<remaining>;t=<seconds to reset>`.'),
};
const REPLAYED = header('`true` when this is the stored answer to an earlier request with the same key.', {
  type: 'string',
  enum: ['true'],
});
const IDEMPOTENCY_KEY = {
  in: 'header',
  name: 'idempotency-key',
  required: false,
  description: IdempotencyKeySchema.description,
  schema: {
    type: 'string',
    minLength: IdempotencyKeySchema.minLength,
    maxLength: IdempotencyKeySchema.maxLength,
    pattern: IdempotencyKeySchema.pattern,
  },
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/**
 * Headers a response carries because of the schema it answers (a feature's fact, e.g. ETag on a
 * reservation): always sent, so documented as `required`.
 */
export type HeadersBySchema = Record<string, Record<string, { description: string; schema?: Json }>>;

function schemaNameOf(response: Json): string | undefined {
  const content = response.content as
    | Record<string, { schema?: { $ref?: string; title?: string } }>
    | undefined;
  const schema = content?.['application/json']?.schema;
  return schema?.$ref?.split('/').pop() ?? schema?.title;
}

export function applyHttpConventions(
  paths: Record<string, Record<string, Operation>>,
  headersBySchema: HeadersBySchema = {},
): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const responses = operation.responses;
      // An operation that names no credential is public: say so rather than leave tools to guess.
      if (operation.security === undefined) operation.security = [];
      if (method === 'post' && !operation.parameters?.some((p) => p.name === 'idempotency-key')) {
        operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY];
      }
      // The key's own refusals, wherever a key is taken (idempotency.plugin.ts: every POST and PATCH).
      if (operation.parameters?.some((p) => p.name === 'idempotency-key')) {
        responses['409'] ??= problem('`idempotency_in_progress`');
        responses['422'] ??= problem('`idempotency_key_reused`');
      }
      if (operation[OPTIONAL_BODY_MARK]) {
        delete operation[OPTIONAL_BODY_MARK];
        if (operation.requestBody) operation.requestBody.required = false;
      }
      if (operation.requestBody) {
        responses['413'] ??= problem('`payload_too_large`');
        responses['415'] ??= problem('`unsupported_media_type`');
      }
      if (!RATE_LIMIT_EXEMPT.has(path)) responses['429'] ??= problem('`rate_limited`');
      // Node's HTTP parser answers this for any URL, before a route runs: said where nothing else
      // names a client error (the health checks), so no operation looks as if it could not fail.
      if (!Object.keys(responses).some((s) => s.startsWith('4')))
        responses['431'] = problem('`headers_too_large`: the URL and headers together over 16 KiB');
      responses['500'] ??= problem('`internal_error`: a fault of the service, logged with the request id');
      // Every route, health checks included, refuses new requests while the service shuts down.
      responses['503'] ??= problem(
        '`service_unavailable`: shutting down (or shedding load); retry after `Retry-After`',
      );
      for (const [status, response] of Object.entries(responses)) {
        const headers = (response.headers ?? {}) as Json;
        headers['X-Request-Id'] ??= REQUEST_ID;
        for (const [name, value] of Object.entries(headersBySchema[schemaNameOf(response) ?? ''] ?? {}))
          headers[name] ??= { schema: { type: 'string' }, required: true, ...value };
        if (status === '429') Object.assign(headers, { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS });
        if (status === '503') headers['Retry-After'] ??= RETRY_AFTER;
        if ((method === 'post' || method === 'patch') && /^2/.test(status))
          headers['Idempotent-Replayed'] ??= REPLAYED;
        response.headers = headers;
      }
    }
  }
}
