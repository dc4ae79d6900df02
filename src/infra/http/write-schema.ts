import { type TObject, type TOptional, type TProperties, Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IdempotencyKeyHeader } from '../idempotency/idempotency-key.ts';
import { problemResponses } from './problem-schema.ts';
import type { ProblemCode } from './problems.ts';
import { IDEMPOTENCY_KEY_PATTERN } from './text-schemas.ts';

/**
 * What the HTTP layer may answer to any write (a POST or PATCH that reads a JSON body), whatever its
 * feature: the `Idempotency-Key`'s refusals (409 in progress, 422 reused with another body) and the
 * body's (413 too large, 415 not JSON).
 */
export const WRITE_PROBLEMS = [
  'idempotency_key_reused',
  'idempotency_in_progress',
  'unsupported_media_type',
  'payload_too_large',
] as const satisfies readonly ProblemCode[];

/** The header's schema as routes declare it (and the document shows it). */
export const IdempotencyKeySchema = Type.String({
  minLength: 1,
  maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
  pattern: IDEMPOTENCY_KEY_PATTERN,
  description: IdempotencyKeyHeader.description,
});

type WithKey<P extends TProperties> = TObject<
  { 'idempotency-key': TOptional<typeof IdempotencyKeySchema> } & P
>;

/**
 * The schema of a write, declared one way by every such route: its `headers` (if any) gain the
 * optional `Idempotency-Key` (validated as any header is), and its `response` the problems it names
 * in `problems` followed by `WRITE_PROBLEMS`.
 */
export function writeSchema<
  S extends Omit<FastifySchema, 'headers' | 'response'> & {
    response: Record<number, unknown>;
    problems: readonly ProblemCode[];
  },
  P extends TProperties = Record<never, never>,
>(schema: S & { headers?: TObject<P> }) {
  const { headers, response, problems, ...rest } = schema;
  return {
    ...rest,
    headers: Type.Object({
      'idempotency-key': Type.Optional(IdempotencyKeySchema),
      ...headers?.properties,
    }) as WithKey<P>,
    response: { ...response, ...problemResponses(...problems, ...WRITE_PROBLEMS) } as S['response'] &
      Record<number, unknown>,
  };
}
