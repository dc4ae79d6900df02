import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { AUTH_PROBLEMS, OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { OperatorReservationParams } from '../operator-access/operator.schemas.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import { addCharge } from './commands/add-charge.ts';
import type { FolioPayment } from './commands/folio-context.ts';
import { readFolio } from './commands/read-folio.ts';
import { recordPayment } from './commands/record-payment.ts';
import { voidCharge } from './commands/void-charge.ts';
import {
  ChargeParams,
  ChargeRequest,
  Folio,
  FolioLine,
  PaymentRequest,
  FolioPayment as PaymentSchema,
} from './folio.schemas.ts';
import type { FolioLine as Line } from './rules/folio-lines.ts';

const money = (amount: number, currency: string) => ({ amount, currency });

const lineView = (l: Line, currency: string) => ({
  id: l.id,
  date: l.date,
  type: l.type,
  code: l.code,
  description: l.description,
  quantity: l.quantity,
  unitAmount: money(l.unitAmount, currency),
  amount: money(l.amount, currency),
  vatRate: l.vatRate,
  invoiceId: l.invoiceId,
  voided: l.voided,
});

const paymentView = (p: FolioPayment, currency: string) => ({
  id: p.id,
  at: p.at.toISOString(),
  kind: p.kind,
  method: p.method,
  amount: money(p.amount, currency),
  reference: p.reference,
});

/** `/operator/reservations/{reservation}/folio` (API.md 13): the folio, desk charges and payments. */
export const folioRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/reservations/:reservation/folio',
    {
      config: { operatorScope: 'folios:read' },
      schema: {
        operationId: 'getFolio',
        summary: 'Read a reservation’s folio',
        ...operatorOperation(
          'folios:read',
          'The reservation’s lines (its room, service and tax lines, or a cancellation’s fee; the desk’s charges), the money paid and given back (at the desk, and by card through the payment provider), and the balance. See docs/api.md §12.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        response: { 200: Folio, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const folio = await readFolio(ctx, operatorOf(request), code);
      const currency = folio.reservation.currency;
      return {
        reservationId: folio.reservation.code,
        currency,
        lines: folio.lines.map((l) => lineView(l, currency)),
        payments: folio.payments.map((p) => paymentView(p, currency)),
        total: money(folio.total, currency),
        paid: money(folio.paid, currency),
        balance: money(folio.total - folio.paid, currency),
        vatRates: folio.vatRates,
        invoices: folio.invoices.map((i) => ({
          id: i.id,
          number: i.number,
          type: i.type,
          issueDate: i.issueDate,
          total: money(i.total, i.currency),
          recipient: i.recipient.name,
          ...(i.corrects ? { corrects: i.corrects } : {}),
          ...(i.correctedBy ? { correctedBy: i.correctedBy } : {}),
        })),
      };
    },
  );

  app.post(
    '/reservations/:reservation/folio/charges',
    {
      config: { operatorScope: 'folios:write' },
      schema: writeSchema({
        operationId: 'addFolioCharge',
        summary: 'Charge something to a folio',
        ...operatorOperation(
          'folios:write',
          'A line of type `charge` (the minibar, a late check-out). `vatRate` must be one of the hotel’s `percent_included` tax rates, or null for a charge outside VAT; absent, the hotel’s VAT rate (400 otherwise).',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        body: ChargeRequest,
        response: { 201: FolioLine },
        problems: ['validation_error', ...AUTH_PROBLEMS],
      }),
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, (r: { line: Line; currency: string }) => ({
        status: 201,
        payload: lineView(r.line, r.currency),
      }));
      const result = await addCharge(
        requestContext(ctx, request),
        operatorOf(request),
        code,
        request.body,
        answer,
      );
      return answer.send(result);
    },
  );

  app.post(
    '/reservations/:reservation/folio/charges/:line/void',
    {
      config: { operatorScope: 'folios:write' },
      schema: {
        operationId: 'voidFolioCharge',
        summary: 'Void a charge of a folio',
        ...operatorOperation(
          'folios:write',
          'The charge stays on the folio with `voided: true` and no longer counts; a charge an invoice took is `409 already_invoiced` (issue a credit note first). Voiding a voided charge answers it unchanged.',
        ),
        headers: OperatorHeaders,
        params: ChargeParams,
        response: { 200: FolioLine, ...problemResponses(...AUTH_PROBLEMS, 'already_invoiced') },
      },
    },
    async (request) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const r = await voidCharge(
        requestContext(ctx, request),
        operatorOf(request),
        code,
        request.params.line,
      );
      return lineView(r.line, r.currency);
    },
  );

  app.post(
    '/reservations/:reservation/folio/payments',
    {
      config: { operatorScope: 'folios:write' },
      schema: writeSchema({
        operationId: 'recordFolioPayment',
        summary: 'Record money taken or given back at the desk',
        ...operatorOperation(
          'folios:write',
          'Cash, a card terminal or a bank transfer (`kind: refund` for money given back). Card payments through the payment provider appear on the folio by themselves.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        body: PaymentRequest,
        response: { 201: PaymentSchema },
        problems: ['validation_error', ...AUTH_PROBLEMS],
      }),
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, (r: { payment: FolioPayment; currency: string }) => ({
        status: 201,
        payload: paymentView(r.payment, r.currency),
      }));
      const result = await recordPayment(
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
