import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppContext, requestContext } from '../context.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { AUTH_PROBLEMS, OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { OperatorReservationParams } from '../operator-access/operator.schemas.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import { ChargeCardRequest, ChargeCardResponse } from './charge-card.schemas.ts';
import { type CardCharged, chargeCard } from './commands/charge-card.ts';

const view = (r: CardCharged) => ({
  reservationId: r.code,
  payment: {
    id: r.payment.id,
    at: r.payment.at.toISOString(),
    kind: 'payment' as const,
    method: 'card' as const,
    amount: { amount: r.payment.amount, currency: r.currency },
    reference: r.payment.reference,
  },
  reason: r.reason,
  balance: { amount: r.balance, currency: r.currency },
});

/** `POST /operator/reservations/{reservation}/charge-card` (API.md 14.2): the desk charges the card on file. */
export const chargeCardRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/reservations/:reservation/charge-card',
    {
      config: { operatorScope: 'folios:write' },
      schema: writeSchema({
        operationId: 'chargeCardOnFile',
        summary: 'Charge the card on file',
        ...operatorOperation(
          'folios:write',
          'Charges the card the guest left with a deposit plan, now and without the guest: the folio’s balance by default, or `amount` (a no-show fee), never more than the balance (`409 amount_exceeds_balance`); a reservation without a card on file is `409 no_card_on_file`; a decline is `402 payment_failed`: nothing is charged or paid, and the event `payment.failed` is recorded. Once per `Idempotency-Key`. The payment shows in the folio with `method: card`. See docs/api.md §13.2.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        body: ChargeCardRequest,
        response: { 201: ChargeCardResponse },
        problems: [
          'validation_error',
          'payment_failed',
          'amount_exceeds_balance',
          'no_card_on_file',
          ...AUTH_PROBLEMS,
        ],
      }),
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, (r: CardCharged) => ({ status: 201, payload: view(r) }));
      const result = await chargeCard(
        requestContext(ctx, request),
        operatorOf(request),
        code,
        request.body,
        answer,
      );
      return answer.send(result);
    },
  );
};
