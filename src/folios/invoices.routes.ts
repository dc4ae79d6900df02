import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { varyOn } from '../infra/http/vary.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { AUTH_PROBLEMS, OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { HotelParams, OperatorReservationParams } from '../operator-access/operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from '../operator-access/operator-auth.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import { readInvoicePdf } from './commands/invoice-pdf.ts';
import type { Invoice } from './commands/invoice-view.ts';
import { issueCreditNote } from './commands/issue-credit-note.ts';
import { issueInvoice } from './commands/issue-invoice.ts';
import { listInvoices } from './commands/list-invoices.ts';
import { readInvoice } from './commands/read-invoice.ts';
import { readVerifactuRecords } from './commands/read-verifactu-records.ts';
import { invoicesCsv } from './invoice-csv.ts';
import {
  CreditNoteRequest,
  InvoiceCsv,
  InvoiceListQuery,
  InvoicePage,
  InvoiceParams,
  InvoicePdfDocument,
  InvoicePdfQuery,
  Invoice as InvoiceSchema,
  IssueInvoiceRequest,
  RecordsPage,
  RecordsQuery,
} from './invoices.schemas.ts';

const money = (amount: number, currency: string) => ({ amount, currency });

/** An invoice as API.md 13 shows it. */
export function invoiceView({ row, lines, record, qrUrl }: Invoice) {
  const c = row.currency;
  return {
    id: row.id,
    number: row.number,
    series: row.series,
    type: row.type,
    issuedAt: row.issuedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    issueDate: row.issueDate,
    reservationId: row.reservationCode,
    issuer: row.issuer,
    recipient: row.recipient,
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitAmount: money(l.unitAmount, c),
      amount: money(l.amount, c),
      vatRate: l.vatRate,
    })),
    taxes: row.taxes.map((t) => ({ vatRate: t.vatRate, base: money(t.base, c), amount: money(t.amount, c) })),
    total: money(row.total, c),
    language: row.language,
    ...(row.corrects ? { corrects: row.corrects } : {}),
    ...(record && qrUrl
      ? {
          verifactu: {
            hash: record.hash,
            previousHash: record.previousHash,
            generatedAt: record.fields.FechaHoraHusoGenRegistro,
            qrUrl,
          },
        }
      : {}),
  };
}

const ISSUE_PROBLEMS = [
  ...AUTH_PROBLEMS,
  'validation_error',
  'invoicing_not_configured',
  'nothing_to_invoice',
  'already_corrected',
] as const;

/** Invoices and credit notes (API.md 13): issue, read, list for the accountant, the VERI*FACTU chain. */
export const invoicesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/reservations/:reservation/invoices',
    {
      config: { operatorScope: 'folios:write' },
      schema: writeSchema({
        operationId: 'issueInvoice',
        summary: 'Invoice a reservation’s folio',
        ...operatorOperation(
          'folios:write',
          'An invoice of every folio line neither invoiced nor voided (`409 nothing_to_invoice` when none), to `recipient` or by default the guest, numbered without gaps per hotel, series and year, and (with `legal.verifactu`) chained. A hotel without `legal` is `409 invoicing_not_configured`. See docs/api.md §12.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        body: IssueInvoiceRequest,
        response: { 201: InvoiceSchema },
        problems: ISSUE_PROBLEMS.filter((p) => p !== 'already_corrected'),
      }),
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, (invoice: Invoice) => ({
        status: 201,
        payload: invoiceView(invoice),
      }));
      const result = await issueInvoice(
        requestContext(ctx, request),
        operatorOf(request),
        code,
        request.body ?? {},
        answer,
      );
      return answer.send(result);
    },
  );

  app.post(
    '/invoices/:invoice/credit-note',
    {
      config: { operatorScope: 'folios:write' },
      schema: writeSchema({
        operationId: 'issueCreditNote',
        summary: 'Annul an invoice with a credit note',
        ...operatorOperation(
          'folios:write',
          'A `credit_note` in the credit-note series with every amount negated and `corrects`; the invoice’s lines can be invoiced again. A second credit note of one invoice is `409 already_corrected`.',
        ),
        headers: OperatorHeaders,
        params: InvoiceParams,
        body: CreditNoteRequest,
        response: { 201: InvoiceSchema },
        problems: [...ISSUE_PROBLEMS],
      }),
    },
    async (request, reply) => {
      const answer = atomicReply(request, reply, (invoice: Invoice) => ({
        status: 201,
        payload: invoiceView(invoice),
      }));
      const result = await issueCreditNote(
        requestContext(ctx, request),
        operatorOf(request),
        request.params.invoice,
        request.body,
        answer,
      );
      return answer.send(result);
    },
  );

  app.get(
    '/invoices/:invoice',
    {
      config: { operatorScope: 'folios:read' },
      schema: {
        operationId: 'getInvoice',
        summary: 'Read an invoice or credit note',
        ...operatorOperation('folios:read', 'As issued: invoices never change.'),
        headers: OperatorHeaders,
        params: InvoiceParams,
        response: { 200: InvoiceSchema, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request) => invoiceView(await readInvoice(ctx, operatorOf(request), request.params.invoice)),
  );

  app.get(
    '/invoices/:invoice/pdf',
    {
      config: { operatorScope: 'folios:read' },
      schema: {
        operationId: 'getInvoicePdf',
        summary: 'Download an invoice or credit note as PDF',
        ...operatorOperation(
          'folios:read',
          'The invoice as an A4 PDF in the guest’s language or `language` (numbers, dates and money as that language writes them): issuer, recipient, number, dates, lines, VAT breakdown, total, the invoice a credit note corrects and, under VERI*FACTU, the QR code of `verifactu.qrUrl` with the words “VERI*FACTU”.',
        ),
        headers: OperatorHeaders,
        params: InvoiceParams,
        querystring: InvoicePdfQuery,
        produces: ['application/pdf'],
        response: {
          200: {
            description: 'The PDF (`Content-Disposition: inline; filename="<number>.pdf"`)',
            content: { 'application/pdf': { schema: InvoicePdfDocument } },
          },
          ...problemResponses('validation_error', ...AUTH_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const { number, pdf } = await readInvoicePdf(
        ctx,
        operatorOf(request),
        request.params.invoice,
        request.query.language,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/hotels/:hotel/invoices',
    {
      config: { operatorScope: 'folios:read' },
      schema: {
        operationId: 'listInvoices',
        summary: 'List a hotel’s invoices for the accountant',
        ...operatorOperation(
          'folios:read',
          'Invoices and credit notes issued on hotel-local dates `from`..`to` (inclusive), in issue order, `limit` per page (default 100, at most 500; `cursor` = the previous `nextCursor`). `Accept: text/csv` answers the page as CSV, one row per invoice and VAT rate.',
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        querystring: InvoiceListQuery,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'A page of invoices, as JSON or (with `Accept: text/csv`) CSV',
            content: { 'application/json': { schema: InvoicePage }, 'text/csv': { schema: InvoiceCsv } },
          },
          ...problemResponses('validation_error', ...AUTH_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const { hotel } = request.params;
      const principal = operatorOf(request);
      requireVisibleHotel(principal, hotel, ctx.catalog.get(hotel) !== undefined);
      const { from, to, cursor, limit } = request.query;
      const page = await listInvoices(ctx, principal, {
        hotelId: hotel,
        from: from ?? null,
        to: to ?? null,
        afterSeq: cursor ? Number(cursor) : 0,
        limit: limit === undefined ? 100 : Number(limit),
      });
      varyOn(reply, 'Accept');
      if (/\btext\/csv\b/i.test(request.headers.accept ?? '')) {
        return reply
          .type('text/csv; charset=utf-8; header=present')
          .header('content-disposition', `attachment; filename="invoices-${hotel}.csv"`)
          .send(invoicesCsv(page.data));
      }
      return reply.type('application/json; charset=utf-8').send({
        data: page.data.map(invoiceView),
        nextCursor: page.nextSeq === null ? null : String(page.nextSeq),
      });
    },
  );

  app.get(
    '/hotels/:hotel/verifactu-records',
    {
      config: { operatorScope: 'folios:read' },
      schema: {
        operationId: 'listVerifactuRecords',
        summary: 'Read a hotel’s VERI*FACTU chain',
        ...operatorOperation(
          'folios:read',
          'The registration records in chain order with the values each hashed under the agency’s names, so anyone can recompute every `hash` and check each `previousHash` (docs/api.md §12). `after` = the previous page’s `nextCursor`; `limit` default 100, at most 1000.',
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        querystring: RecordsQuery,
        response: { 200: RecordsPage, ...problemResponses('validation_error', ...AUTH_PROBLEMS) },
      },
    },
    async (request) => {
      const { hotel } = request.params;
      const principal = operatorOf(request);
      requireVisibleHotel(principal, hotel, ctx.catalog.get(hotel) !== undefined);
      const page = await readVerifactuRecords(ctx, principal, {
        hotelId: hotel,
        afterSeq: request.query.after ? Number(request.query.after) : 0,
        limit: request.query.limit === undefined ? 100 : Number(request.query.limit),
      });
      return {
        data: page.data.map((r) => ({
          invoiceId: r.invoiceId,
          number: r.number,
          fields: r.fields,
          hash: r.hash,
          previousHash: r.previousHash,
          generatedAt: r.fields.FechaHoraHusoGenRegistro,
        })),
        nextCursor: page.nextSeq === null ? null : String(page.nextSeq),
      };
    },
  );
};
