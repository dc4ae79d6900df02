import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { type AppContext, requestContext } from '../context.ts';
import { authenticate } from '../infra/http/authenticate.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AppError, validationProblem } from '../infra/http/problems.ts';
import { faultEntries, typeboxFaults } from '../infra/http/schema-errors.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { OpenSessionBody, SessionParams, SignedSession, StepSubmission } from './checkin.schemas.ts';
import { getSession } from './commands/get-session.ts';
import { type OpenedSession, openSession } from './commands/open-session.ts';
import { reachSession } from './commands/reach-session.ts';
import type { SessionState } from './commands/session-state.ts';
import { submitStep } from './commands/submit-step.ts';
import { IDENTITY_BODY_LIMIT } from './steps/identity-document.ts';
import { STEP_NAMES } from './steps/index.ts';

const STEP_LIST = STEP_NAMES.map((n) => `\`${n}\``).join(', ');

/**
 * The step body is a union told apart by `step`: the route checks its envelope (`{ step, data }`,
 * `data` an object), and the `submitStep` command the `data` of the named step after the order
 * rules, so a client learns first whether the step may be taken at all. The OpenAPI document shows
 * the union. An unknown session id in the path is `404`, as everywhere on these routes.
 */
const StepEnvelope = Type.Object(
  {
    step: Type.Union(STEP_NAMES.map((name) => Type.Literal(name))),
    data: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: false },
);

// biome-ignore lint/suspicious/noExplicitAny: fastify hands this route's TypeBox schemas to it
const stepValidator: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(httpPart === 'body' ? StepEnvelope : (schema as TSchema));
  if (httpPart === 'params') {
    return (value: unknown) =>
      check.Check(value)
        ? { value }
        : { error: new AppError('not_found', 'No check-in session has this id.') };
  }
  const prefix = httpPart === 'headers' ? '/headers' : '';
  return (value: unknown) =>
    check.Check(value)
      ? { value }
      : { error: validationProblem(faultEntries(typeboxFaults(check.Errors(value), prefix))) };
};

const NO_STORE = 'no-store';

/** Opening a session needs no credential, or the reservation's access token instead of the last name. */
const ANYONE_OR_TOKEN: Record<string, string[]>[] = [{}, { reservationToken: [] }];

/** Self check-in (API.md 3): thin handlers over the check-in commands (`commands/`). */
export const checkinRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  /** The session a step request reached before its body was read: the step's proof. */
  const reached = new WeakMap<FastifyRequest, SessionState>();

  // A session id is matched only as its canonical characters: one spelled with percent-escapes
  // (`%63ks_…`, `cks%5F…`) is `404`, for every route and before any other hook. No client writes
  // an id that way, and one spelling per session keeps idempotency scopes (keyed by the raw path)
  // and anything else keyed by URL from telling two spellings of one session apart.
  app.addHook('onRequest', async (request) => {
    const id = (request.params as { session?: unknown }).session;
    if (typeof id !== 'string') return;
    const path = request.url.split('?', 1)[0] ?? '';
    if (!path.split('/').includes(id)) throw new AppError('not_found', 'No check-in session has this id.');
  });

  app.post(
    '/sessions',
    {
      schema: writeSchema({
        operationId: 'openCheckinSession',
        tags: ['checkin'],
        summary: 'Open (or get back) the check-in session of a reservation',
        description: [
          "Proves the reservation with its confirmation code and either the booker's last name",
          '(compared case- and accent-insensitively) or `Authorization: Bearer <accessToken>`. Any',
          'mismatch, or an unknown code, is the same `404 not_found`. Failed proofs are limited per',
          'client address and reservation code (`CHECKIN_PROOF_LIMIT` per `CHECKIN_PROOF_WINDOW_SECONDS`,',
          'default 20 per 15 minutes) and per client address over all codes (`CHECKIN_PROOF_ADDRESS_LIMIT`,',
          'default 200), then `429 rate_limited` with `Retry-After`. A valid access token is never limited.',
          '',
          'A reservation has at most one session: `201` when it is created, `200` with the same session',
          '(open or completed) afterwards. The session id is a bearer secret: keep it like a password.',
        ].join('\n'),
        security: ANYONE_OR_TOKEN,
        body: OpenSessionBody,
        response: {
          200: {
            ...Type.Ref(SignedSession),
            description: 'The reservation already had a session: here it is.',
          },
          201: { ...Type.Ref(SignedSession), description: 'A new session was opened.' },
        },
        problems: ['unauthorized', 'not_found', 'reservation_cancelled', 'session_expired'],
      }),
      preHandler: authenticate('reservationTokenIfSent'),
    },
    async (request, reply) => {
      const answer = atomicReply(request, reply, ({ created, signed }: OpenedSession) => ({
        status: created ? 201 : 200,
        headers: { 'cache-control': NO_STORE },
        payload: signed,
      }));
      const opened = await openSession(
        requestContext(ctx, request),
        { reservationId: request.body.reservationId },
        { lastName: request.body.lastName, accessToken: request.credential, clientAddress: request.ip },
        answer,
      );
      return answer.send(opened);
    },
  );

  app.get(
    '/sessions/:session',
    {
      schema: {
        operationId: 'getCheckinSession',
        tags: ['checkin'],
        summary: 'The check-in session, signed',
        description: [
          'The session with its steps (submitted data masked) and `signature`: a compact JWS (EdDSA,',
          '`kid` header) whose payload is `{ iss, sub, iat, exp, session }`, `session` being exactly the',
          'returned object. Verify it with the keys at `GET /.well-known/jwks.json`. A session past its',
          '`expiresAt` (check-out) answers `410 session_expired`. The id must be sent as it is: one',
          'written with percent-escapes (`%63ks_…`) is `404 not_found`, on every session route.',
        ].join(' '),
        params: SessionParams,
        response: {
          200: { ...Type.Ref(SignedSession), description: 'The session and its JWS signature.' },
          ...problemResponses('not_found', 'session_expired'),
        },
      },
    },
    async (request, reply) => {
      const signed = await getSession(requestContext(ctx, request), request.params.session);
      return reply.header('cache-control', NO_STORE).send(signed);
    },
  );

  app.post(
    '/sessions/:session/step',
    {
      bodyLimit: IDENTITY_BODY_LIMIT,
      validatorCompiler: stepValidator,
      schema: writeSchema({
        operationId: 'submitCheckinStep',
        tags: ['checkin'],
        summary: 'Submit (or correct) one check-in step',
        description: [
          `Steps, in order: ${STEP_LIST}. \`step\` selects the shape of \`data\` (see the schemas).`,
          'A step sent while an earlier required step is pending is `409 step_out_of_order`; a skipped',
          'step (companions for a party of one, payment when nothing is due) is `409 step_not_applicable`;',
          'a completed step may be sent again to correct it until the session completes, after which',
          'every step is `409 session_completed`. Invalid `data` is `400 validation_error` and changes',
          'nothing. The payment step charges the balance due; a decline is `402 payment_failed` and the',
          'step stays pending. The body may be up to 8 MiB for `identity_document` (its image), 1 MiB',
          'otherwise. Send `Idempotency-Key` to make a retry safe.',
        ].join(' '),
        params: SessionParams,
        body: StepSubmission,
        response: {
          200: {
            ...Type.Ref(SignedSession),
            description: 'The step was accepted: the signed session, nextStep advanced.',
          },
        },
        problems: [
          'payment_failed',
          'not_found',
          'step_out_of_order',
          'step_not_applicable',
          'session_completed',
          'reservation_cancelled',
          'session_expired',
        ],
      }),
      // Before the body is read: an unknown or expired session answers the same to every request.
      onRequest: async (request) => {
        const id = (request.params as { session: string }).session;
        reached.set(request, await reachSession(requestContext(ctx, request), id));
      },
      preValidation: async (request) => {
        const step = (request.body as { step?: unknown } | undefined)?.step;
        if (step === 'identity_document') return;
        const declared = Number(request.headers['content-length']);
        const length = Number.isFinite(declared)
          ? declared
          : Buffer.byteLength(JSON.stringify(request.body ?? null));
        if (length > (app.initialConfig.bodyLimit ?? 1024 * 1024)) {
          throw new AppError('payload_too_large', 'Only the identity_document step may exceed 1 MiB.');
        }
      },
    },
    async (request, reply) => {
      const answer = atomicReply(request, reply, (signed: SignedSession) => ({
        status: 200,
        headers: { 'cache-control': NO_STORE },
        payload: signed,
      }));
      const session = reached.get(request);
      if (!session) throw new Error('the step route reached no session before its handler');
      return answer.send(await submitStep(requestContext(ctx, request), request.body, session, answer));
    },
  );
};
