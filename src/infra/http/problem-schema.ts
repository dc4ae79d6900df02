import { Type } from '@sinclair/typebox';
import { PROBLEM_TYPE_BASE, PROBLEMS, type ProblemCode } from './problems.ts';

export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri', examples: [`${PROBLEM_TYPE_BASE}no-availability`] }),
    title: Type.String(),
    status: Type.Integer(),
    // A plain `enum` (not an anyOf of constants) so SDK generators make one string-union type.
    code: Type.Unsafe<ProblemCode>({
      type: 'string',
      enum: Object.keys(PROBLEMS),
      description: 'stable machine-readable problem code',
      examples: ['no_availability'],
    }),
    detail: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            path: Type.Optional(Type.String({ description: 'JSON pointer into the request body' })),
            message: Type.String(),
          },
          { additionalProperties: true },
        ),
      ),
    ),
    requestId: Type.String(),
    nextAction: Type.Optional(
      Type.Object(
        {
          type: Type.Literal('stripe'),
          clientSecret: Type.String({
            description:
              'The PaymentIntent’s client secret: complete it with Stripe.js (`handleNextAction`).',
          }),
        },
        {
          additionalProperties: false,
          description:
            'Only on a `402 payment_failed` whose payment needs the guest’s action (3-D Secure, docs/api.md §4): ' +
            'complete it in the browser, then send the same request again with the PaymentIntent id (`pi_…`) as the token.',
        },
      ),
    ),
    unknownRoute: Type.Optional(
      Type.Boolean({
        description:
          'Only on the `404` of a path no endpoint serves (never on an unknown reservation, session or hotel).',
      }),
    ),
  },
  { $id: 'Problem', title: 'Problem', description: 'RFC 9457 problem details' },
);

/** Response entries for a route's problem codes, so each status is documented and serialised. */
export function problemResponses(...codes: ProblemCode[]) {
  const responses: Record<number, unknown> = {};
  const byStatus = new Map<number, string[]>();
  const always: ProblemCode[] = [
    'validation_error',
    'rate_limited',
    'internal_error',
    'service_unavailable',
    'database_unavailable',
  ];
  for (const code of [...codes, ...always]) {
    const status = PROBLEMS[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  // Documented (and serialised) under the media type errors really carry, not application/json.
  for (const [status, list] of byStatus) {
    responses[status] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      content: { 'application/problem+json': { schema: Type.Ref(Problem) } },
    };
  }
  return responses;
}
