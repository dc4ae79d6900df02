import { Type } from '@sinclair/typebox';
import { IdempotencyKeyHeader } from '../infra/idempotency/idempotency-key.ts';
import type { OperatorScope } from './operator-auth.ts';

/** The OpenAPI security scheme of the operator API (registered by infra/http/openapi.ts). */
export const OPERATOR_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: [
    'An operator key `ik_…` (API.md 7.1): `Authorization: Bearer ik_…`. No, unknown or revoked key:',
    '`401`; a key without the scope the operation names: `403`; a hotel outside the key’s `hotelIds`:',
    '`404`, as if it did not exist. Verified keys are cached for up to OPERATOR_KEY_CACHE_SECONDS',
    '(default 5 s), so a revocation takes effect on every process within that time.',
  ].join(' '),
} as const;

export const OperatorHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer ik_… (an operator key)' })),
});

export const OperatorPostHeaders = Type.Object({
  ...OperatorHeaders.properties,
  'idempotency-key': Type.Optional(IdempotencyKeyHeader),
});

/** Tags, security requirement (with the scope) and `x-scopes` of an operator operation. */
export function operatorOperation(scope: OperatorScope, description: string) {
  const scopes = scope === 'any' ? [] : [scope];
  return {
    tags: ['Operator'],
    security: [{ operatorKey: scopes }],
    'x-scopes': scopes,
    description: `${description}\n\nScope: ${scope === 'any' ? 'any valid operator key' : `\`${scope}\``}.`,
  };
}
