import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { AUTH_PROBLEMS, OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { OperatorReservationParams } from '../operator-access/operator.schemas.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import { listMessages } from './commands/list-messages.ts';
import { resendMessage } from './commands/resend-message.ts';
import { GuestMessage, GuestMessageList, ResendRequest } from './messages.schemas.ts';
import { messageView } from './messages.view.ts';

/** `/operator/reservations/{reservation}/messages` (API.md 10): the guest's e-mails, and sending one again. */
export const messagesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/reservations/:reservation/messages',
    {
      config: { operatorScope: 'reservations:read' },
      schema: {
        operationId: 'listReservationMessages',
        summary: 'A reservation’s guest messages',
        ...operatorOperation(
          'reservations:read',
          'Every e-mail queued for the reservation’s guest, oldest first, with its status (`queued`, `sent`, `failed`), attempts and last error. The scheduled check-in invitation is listed `queued` with its `sendAfter` until it goes out.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        response: { 200: GuestMessageList, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const rows = await listMessages(ctx, code, operatorOf(request));
      return { data: rows.map(messageView) };
    },
  );

  app.post(
    '/reservations/:reservation/messages',
    {
      config: { operatorScope: 'reservations:write' },
      schema: writeSchema({
        operationId: 'sendReservationMessage',
        summary: 'Send a guest message again',
        ...operatorOperation(
          'reservations:write',
          '`booking_confirmation` or `checkin_invitation`, as the reservation stands now (the invitation with the link to its check-in session, opened if need be): `202` with the new message, `queued`. A cancelled reservation answers `409 reservation_cancelled`.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        body: ResendRequest,
        response: { 202: GuestMessage },
        problems: [...AUTH_PROBLEMS, 'precondition_failed', 'reservation_cancelled'],
      }),
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, (row: Parameters<typeof messageView>[0]) => ({
        status: 202,
        payload: messageView(row),
      }));
      const row = await resendMessage(
        requestContext(ctx, request),
        code,
        request.body,
        operatorOf(request),
        answer,
      );
      return answer.send(row);
    },
  );
};
