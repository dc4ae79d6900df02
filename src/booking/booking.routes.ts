import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { type AppContext, requestContext } from '../context.ts';
import { authenticate, requiredCredential } from '../infra/http/authenticate.ts';
import { OPTIONAL_BODY, optionalBody } from '../infra/http/openapi-conventions.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { FALLBACK_LANGUAGE } from '../infra/i18n/languages.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { Reservation } from '../reservations/reservation.schemas.ts';
import { etagOf, reservationView } from '../reservations/reservation.view.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import {
  currentReservation,
  languageHeaders,
  namedStay,
  requestLanguage,
  withLanguage,
} from './answer-language.ts';
import { availabilityRoutes } from './availability.routes.ts';
import { CreatedReservation } from './booking.schemas.ts';
import { cancelReservation } from './commands/cancel-reservation.ts';
import { createReservation, type NewReservation } from './commands/create-reservation.ts';
import { modifyReservation } from './commands/modify-reservation.ts';
import { readReservation } from './commands/read-reservation.ts';
import { hotelRoutes } from './hotel.routes.ts';
import { priceCalendarRoutes } from './price-calendar.routes.ts';
import { quoteHotels } from './quote-id.ts';
import { changeReservation, MODIFY_PROBLEMS } from './reservation-change.ts';
import {
  AuthHeaders,
  CancelRequest,
  ModifyRequest,
  ReservationParams,
  ReservationRequest,
} from './reservation-requests.schemas.ts';

const security = [{ reservationToken: [] }];

/** What a change of a reservation by its guest may be refused with, beside the write's own answers. */
const CHANGE_PROBLEMS = ['unauthorized', 'forbidden', 'not_found', 'precondition_failed'] as const;

/** The guest as the authority of a change, answered with the reservation named in their language. */
function asGuest(ctx: AppContext, request: FastifyRequest) {
  return {
    authority: { kind: 'guest' as const, accessToken: requiredCredential(request) },
    answer: currentReservation(ctx, requestLanguage(request)),
  };
}

/** HTTP for the booking flow: each handler maps the request to one service call and back. */
export const bookingRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(hotelRoutes, { ctx });
  await app.register(priceCalendarRoutes, { ctx });
  await app.register(availabilityRoutes, { ctx });
  app.post(
    '/reservations',
    {
      // The quote id's tag names the hotel: the key commits with the booking on its shard (issue 37).
      config: {
        idempotencyHotel: (request) => {
          const hotels = quoteHotels(ctx.catalog, (request.body as ReservationRequest).quoteId);
          return hotels?.length === 1 ? (hotels[0] as string) : null;
        },
      },
      schema: writeSchema({
        operationId: 'createReservation',
        tags: ['booking'],
        summary: 'Book a quote',
        description:
          'Takes the rooms atomically (never oversold) at the quoted price. A `prepayment: full` rate plan needs `payment.token` and is charged now; a failed creation takes no rooms and charges nothing. The response alone carries `accessToken`, the secret for PATCH and cancel. Send an `Idempotency-Key` so that a retry returns the same reservation.',
        body: ReservationRequest,
        response: { 201: Type.Ref(CreatedReservation) },
        problems: [
          'payment_required',
          'payment_failed',
          'no_availability',
          'quote_already_used',
          'quote_expired',
          'restriction_window',
        ],
      }),
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
        requestContext(ctx, request),
        request.body,
        { kind: 'guest' },
        // The guest's language when the body names none (API.md 10): the one read of Accept-Language.
        { ...answer, language: lang ?? FALLBACK_LANGUAGE },
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
      schema: writeSchema({
        operationId: 'modifyReservation',
        tags: ['booking'],
        summary: 'Change a reservation',
        description:
          'Any subset of the stay (dates, party, rooms, room type, rate plan, services), guest details and special requests. A stay change is re-priced at current prices and re-checked; it applies entirely or not at all. Non-refundable plans refuse stay changes (409 `not_modifiable`). A prepaid reservation whose price rises needs `payment.token` for the difference; one whose price falls is refunded the difference. Honours `If-Match`.',
        security,
        headers: AuthHeaders,
        params: ReservationParams,
        body: ModifyRequest,
        response: { 200: Type.Ref(Reservation) },
        problems: [...CHANGE_PROBLEMS, ...MODIFY_PROBLEMS],
      }),
      preHandler: authenticate('reservationToken'),
    },
    (request, reply) =>
      changeReservation(ctx, request, reply, asGuest(ctx, request), (command, code, guest, options) =>
        modifyReservation(command, code, request.body, guest, options),
      ),
  );

  app.post(
    '/reservations/:reservation/cancel',
    {
      schema: writeSchema({
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
        response: { 200: Type.Ref(Reservation) },
        problems: CHANGE_PROBLEMS,
      }),
      // The body is optional: no body means no reason.
      ...optionalBody,
      preHandler: authenticate('reservationToken'),
    },
    (request, reply) =>
      changeReservation(ctx, request, reply, asGuest(ctx, request), (command, code, guest, options) =>
        cancelReservation(command, code, request.body, guest, options),
      ),
  );
};
