import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context.ts';
import { authenticate, requiredCredential } from '../infra/http/authenticate.ts';
import { OPTIONAL_BODY } from '../infra/http/openapi-conventions.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { Reservation } from '../reservations/reservation.schemas.ts';
import { etagOf, reservationView } from '../reservations/reservation.view.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import { availabilityRoutes } from './availability.routes.ts';
import { CreatedReservation } from './booking.schemas.ts';
import { cancelReservation } from './commands/cancel-reservation.ts';
import type { CommandContext } from './commands/command-context.ts';
import { createReservation, type NewReservation } from './commands/create-reservation.ts';
import { modifyReservation } from './commands/modify-reservation.ts';
import { readReservation } from './commands/read-reservation.ts';
import { hotelRoutes } from './hotel.routes.ts';
import {
  currentReservation,
  languageHeaders,
  namedStay,
  requestLanguage,
  withLanguage,
} from './localized-names.ts';
import {
  AuthHeaders,
  CancelRequest,
  IdempotencyHeaders,
  ModifyRequest,
  ReservationParams,
  ReservationRequest,
} from './reservation-requests.schemas.ts';

const security = [{ reservationToken: [] }];

/** The commands' context for one request: the app's parts and the request's log. */
const withLog = (ctx: AppContext, log: CommandContext['log']): CommandContext => ({ ...ctx, log });

/** HTTP for the booking flow: each handler maps the request to one service call and back. */
export const bookingRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(hotelRoutes, { ctx });
  await app.register(availabilityRoutes, { ctx });
  app.post(
    '/reservations',
    {
      schema: {
        operationId: 'createReservation',
        tags: ['booking'],
        summary: 'Book a quote',
        description:
          'Takes the rooms atomically (never oversold) at the quoted price. A `prepayment: full` rate plan needs `payment.token` and is charged now; a failed creation takes no rooms and charges nothing. The response alone carries `accessToken`, the secret for PATCH and cancel. Send an `Idempotency-Key` so that a retry returns the same reservation.',
        headers: IdempotencyHeaders,
        body: ReservationRequest,
        response: {
          201: Type.Ref(CreatedReservation),
          ...problemResponses(
            'payment_required',
            'payment_failed',
            'no_availability',
            'quote_already_used',
            'quote_expired',
            'restriction_window',
            'idempotency_key_reused',
            'idempotency_in_progress',
            'unsupported_media_type',
            'payload_too_large',
          ),
        },
      },
    },
    async (request, reply) => {
      // The response (the only one carrying the access token) commits with the reservation.
      const lang = requestLanguage(request);
      const answer = atomicReply(request, reply, ({ row, accessToken }: NewReservation) => ({
        status: 201,
        headers: {
          etag: etagOf(row),
          location: `/api/v1/booking/reservations/${row.code}`,
          ...languageHeaders(lang),
        },
        payload: { ...namedStay(ctx.catalog.get(row.hotelId), reservationView(row), lang), accessToken },
      }));
      const created = await createReservation(
        withLog(ctx, request.log),
        request.body,
        { kind: 'guest' },
        // The guest's language when the body names none (API.md 10).
        { ...answer, acceptLanguage: request.headers['accept-language'] },
      );
      return answer.send(created);
    },
  );

  app.get(
    '/reservations/:reservation',
    {
      schema: {
        operationId: 'getReservation',
        tags: ['booking'],
        summary: 'Read a reservation',
        description:
          'The reservation with its `ETag`, for the holder of its access token: what the `Location` of a created reservation points to. 401 without a token, 403 with another reservation’s, 404 for an unknown code.',
        security,
        headers: Type.Object({ authorization: AuthHeaders.properties.authorization }),
        params: ReservationParams,
        response: {
          200: Type.Ref(Reservation),
          ...problemResponses('unauthorized', 'forbidden', 'not_found'),
        },
      },
      preHandler: authenticate('reservationToken'),
    },
    async (request, reply) => {
      const accessToken = requiredCredential(request);
      const code = reservationCodeOrNotFound(request.params.reservation);
      const row = await readReservation(ctx, code, { kind: 'guest', accessToken });
      const lang = requestLanguage(request);
      return withLanguage(reply, lang)
        .header('etag', etagOf(row))
        .send(namedStay(ctx.catalog.get(row.hotelId), reservationView(row), lang));
    },
  );

  app.patch(
    '/reservations/:reservation',
    {
      schema: {
        operationId: 'modifyReservation',
        tags: ['booking'],
        summary: 'Change a reservation',
        description:
          'Any subset of the stay (dates, party, rooms, room type, rate plan, services), guest details and special requests. A stay change is re-priced at current prices and re-checked; it applies entirely or not at all. Non-refundable plans refuse stay changes (409 `not_modifiable`). A prepaid reservation whose price rises needs `payment.token` for the difference; one whose price falls is refunded the difference. Honours `If-Match`.',
        security,
        headers: AuthHeaders,
        params: ReservationParams,
        body: ModifyRequest,
        response: {
          200: Type.Ref(Reservation),
          ...problemResponses(
            'unauthorized',
            'forbidden',
            'not_found',
            'precondition_failed',
            'reservation_cancelled',
            'not_modifiable',
            'no_availability',
            'restriction_window',
            'payment_required',
            'payment_failed',
            'idempotency_key_reused',
            'idempotency_in_progress',
            'unsupported_media_type',
            'payload_too_large',
          ),
        },
      },
      preHandler: authenticate('reservationToken'),
    },
    async (request, reply) => {
      const token = requiredCredential(request);
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, currentReservation(ctx, requestLanguage(request)));
      const row = await modifyReservation(
        withLog(ctx, request.log),
        code,
        request.body,
        { kind: 'guest', accessToken: token },
        { ...answer, ifMatch: request.headers['if-match'] },
      );
      return answer.send(row);
    },
  );

  app.post(
    '/reservations/:reservation/cancel',
    {
      schema: {
        operationId: 'cancelReservation',
        tags: ['booking'],
        summary: 'Cancel a reservation',
        description:
          'Releases the rooms. Fee: 0 before `freeCancellationUntil`, the penalty after it, the whole total for a non-refundable plan; `refund` = paid − fee (never below 0). Cancelling a cancelled reservation answers 200 with it unchanged. The body is optional.',
        security,
        headers: AuthHeaders,
        params: ReservationParams,
        body: CancelRequest,
        ...OPTIONAL_BODY,
        response: {
          200: Type.Ref(Reservation),
          ...problemResponses(
            'unauthorized',
            'forbidden',
            'not_found',
            'precondition_failed',
            'idempotency_key_reused',
            'idempotency_in_progress',
            'unsupported_media_type',
            'payload_too_large',
          ),
        },
      },
      // The body is optional: no body means no reason.
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: authenticate('reservationToken'),
    },
    async (request, reply) => {
      const token = requiredCredential(request);
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, currentReservation(ctx, requestLanguage(request)));
      const row = await cancelReservation(
        withLog(ctx, request.log),
        code,
        request.body,
        { kind: 'guest', accessToken: token },
        { ...answer, ifMatch: request.headers['if-match'] },
      );
      return answer.send(row);
    },
  );
};
