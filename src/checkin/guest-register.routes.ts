import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { varyOn } from '../infra/http/vary.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { HotelParams } from '../operator-access/operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from '../operator-access/operator-auth.ts';
import { type RegisterGuest, readGuestRegister } from './commands/read-guest-register.ts';
import { toCsv } from './csv.ts';
import {
  GuestRegister,
  GuestRegisterCsv,
  GuestRegisterQuery,
  REGISTER_CSV_HEADER,
} from './guest-register.schemas.ts';

/** Whether the client asked for CSV rather than JSON (`Accept`, by quality; JSON on a tie or none). */
export function wantsCsv(accept: string | undefined): boolean {
  const quality = (type: string) => {
    let best = 0;
    for (const part of (accept ?? '').split(',')) {
      const [range = '', ...params] = part.trim().toLowerCase().split(';');
      if (range.trim() !== type) continue;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      best = Math.max(best, q ? Number(q.slice(2)) || 0 : 1);
    }
    return best;
  };
  const csv = quality('text/csv');
  return csv > 0 && csv > quality('application/json');
}

const csvRecord = (g: RegisterGuest) => [
  g.reservationId,
  g.role,
  g.firstName,
  g.lastName,
  g.dateOfBirth,
  g.nationality,
  g.document?.type ?? null,
  g.document?.number ?? null,
  g.document?.issuingCountry ?? null,
  g.document?.expiryDate ?? null,
  g.checkIn,
  g.checkOut,
];

/** `GET /operator/hotels/{hotel}/guest-register` (API.md 7.3): who arrives that day, for the police register. */
export const guestRegisterRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/hotels/:hotel/guest-register',
    {
      config: { operatorScope: 'guests:identity' },
      schema: {
        operationId: 'getGuestRegister',
        summary: 'Read the guest register of an arrival date',
        ...operatorOperation(
          'guests:identity',
          [
            'Every guest (primary and companions) of every confirmed reservation arriving on `date` whose',
            'check-in step `guest_details` is done, with the identity document number in full.',
            '`Accept: text/csv` answers the same as RFC 4180 CSV with a header row, every text cell quoted',
            "(a field starting with `=`, `+`, `-`, `@`, tab or CR also prefixed with `'`), so no spreadsheet,",
            'whatever its list separator, reads a formula. Every read is written to',
            'the audit log (key, hotel, date and number of guests; no identity data). After the identity',
            'purge the document is `null`. Never cached (`Cache-Control: no-store`).',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        querystring: GuestRegisterQuery,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'The register, as JSON or (with `Accept: text/csv`) CSV',
            content: {
              'application/json': { schema: GuestRegister },
              'text/csv': { schema: GuestRegisterCsv },
            },
          },
          ...problemResponses('validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const { hotel } = request.params;
      const { date } = request.query;
      const principal = operatorOf(request);
      requireVisibleHotel(principal, hotel, ctx.catalog.get(hotel) !== undefined);
      const csv = wantsCsv(request.headers.accept);
      const guests = await readGuestRegister(requestContext(ctx, request), principal, {
        hotelId: hotel,
        date,
        format: csv ? 'csv' : 'json',
      });
      varyOn(reply.header('cache-control', 'no-store'), 'Accept');
      if (csv) {
        return reply
          .type('text/csv; charset=utf-8; header=present')
          .header('content-disposition', `attachment; filename="guest-register-${hotel}-${date}.csv"`)
          .send(toCsv(REGISTER_CSV_HEADER, guests.map(csvRecord)));
      }
      return reply.type('application/json; charset=utf-8').send({ data: guests });
    },
  );
};
