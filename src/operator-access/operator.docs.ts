import { Type } from '@sinclair/typebox';
import type { OperatorScope } from './operator-auth.ts';

/** The OpenAPI security scheme of the operator API (registered by infra/http/openapi.ts). */
export const OPERATOR_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: [
    'An operator key `ik_…` (docs/api.md §7.1): `Authorization: Bearer ik_…`. No, unknown or revoked key:',
    '`401`; a key without the scope the operation names: `403`; a hotel outside the key’s `hotelIds`:',
    '`404`, as if it did not exist. Verified keys are cached for up to OPERATOR_KEY_CACHE_SECONDS',
    '(default 5 s), so a revocation takes effect on every process within that time. The scope an',
    'operation needs is in its description and its `x-scopes` extension (an HTTP bearer scheme has no',
    'OpenAPI scopes).',
  ].join(' '),
} as const;

/** The OpenAPI security scheme of a signed-in person's session (API.md 12), the other way in. */
export const STAFF_SESSION_SECURITY_SCHEME = {
  type: 'apiKey',
  in: 'cookie',
  name: 'innkeep_session',
  description: [
    'A person’s session (docs/api.md §11), set by `POST /api/v1/auth/sign-in`: it authorises exactly as a key',
    'with the role’s scopes and the person’s hotels would. Read from the database on every request, so a',
    'sign-out or a disabled account is refused at once on every process. A change (`POST`, `PUT`, `PATCH`,',
    '`DELETE`) made with it must come from the service’s own pages (`Origin` = PUBLIC_BASE_URL’s origin, or',
    '`Sec-Fetch-Site: same-origin`), else `403`; on a cross-origin request the cookie counts for nothing.',
    'An `Authorization` header, when sent, is used instead of the cookie.',
  ].join(' '),
} as const;

export const OperatorHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer ik_… (an operator key)' })),
});

/** Refusals of an operator route on one reservation: the key's, and a reservation it does not see. */
export const AUTH_PROBLEMS = ['unauthorized', 'forbidden', 'rate_limited', 'not_found'] as const;
/** What a change of a reservation by the hotel may be refused with, beside the write's own answers. */
export const CHANGE_PROBLEMS = [...AUTH_PROBLEMS, 'precondition_failed'] as const;

/**
 * Tags, security requirement and `x-scopes` of an operator operation. The scope is not listed in
 * the requirement: OpenAPI gives scopes only to OAuth2 and OpenID Connect schemes, so linters
 * (Spectral's oas3-operation-security-defined) refuse them on a bearer scheme.
 */
export function operatorOperation(scope: OperatorScope, description: string) {
  const scopes = scope === 'any' ? [] : [scope];
  return {
    tags: ['Operator'],
    security: [{ operatorKey: [] }, { staffSession: [] }] as Array<Record<string, string[]>>,
    'x-scopes': scopes,
    description: `${description}\n\nScope: ${scope === 'any' ? 'any valid operator key' : `\`${scope}\``}.`,
  };
}
