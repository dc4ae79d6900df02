import type { Hotel } from '../../catalog/catalog.schema.ts';
import { hotelToday } from '../../dates/dates.ts';
import { recordEvent } from '../../events/record-event.ts';
import { randomToken } from '../../infra/crypto/tokens.ts';
import { minorDigits } from '../../infra/currency.ts';
import type { Executor } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { queueMessages } from '../../messages/outbox.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { reservationView } from '../../reservations/reservation.view.ts';
import { invoiceCountersRepository } from '../invoice-counters.repository.ts';
import { type InvoiceLine, invoiceLinesRepository } from '../invoice-lines.repository.ts';
import { invoiceSeriesRepository } from '../invoice-series.repository.ts';
import { type InvoiceRow, invoicesRepository, type Party } from '../invoices.repository.ts';
import { invoiceNumber, type VatEntry } from '../rules/invoice-totals.ts';
import { verifactuFields, verifactuHash } from '../rules/verifactu.ts';
import { verifactuChainHeadsRepository } from '../verifactu-chain-heads.repository.ts';
import { type VerifactuRecord, verifactuRecordsRepository } from '../verifactu-records.repository.ts';
import type { FolioWriteContext } from './folio-context.ts';
import { type Invoice, qrUrlOf } from './invoice-view.ts';

/** The hotel's legal details, or `409 invoicing_not_configured`. */
export function legalOf(hotel: Hotel): NonNullable<Hotel['legal']> {
  if (!hotel.legal) {
    throw new AppError(
      'invoicing_not_configured',
      `Hotel ${hotel.id} has no legal details: add \`legal\` to its catalogue entry to issue invoices.`,
    );
  }
  return hotel.legal;
}

export interface InvoiceDraft {
  type: InvoiceRow['type'];
  series: string;
  issuer: InvoiceRow['issuer'];
  recipient: Party;
  language: InvoiceRow['language'];
  lines: InvoiceLine[];
  taxes: VatEntry[];
  total: number;
  corrects: string | null;
  /** The number of the invoice `corrects` names, for the guest's e-mail. */
  correctsNumber: string | null;
  reason: string | null;
}

/**
 * Numbers, writes and (under VERI*FACTU) chains one invoice or credit note in the caller's
 * transaction, and records `invoice.issued`. The series (and then its year's counter) and the
 * issuer's chain head are locked until the transaction ends, before the clock is read: numbers
 * follow commit order without a gap, issue dates never run backwards against them, and each record
 * chains to the one committed before it, whatever the number of processes.
 */
export async function writeInvoice(
  tx: Executor,
  ctx: FolioWriteContext,
  hotel: Hotel,
  reservation: ReservationRow,
  draft: InvoiceDraft,
): Promise<Invoice> {
  const legal = legalOf(hotel);
  // The series first, then the issuer's chain: one lock order for every issue, no deadlock.
  await invoiceSeriesRepository.lock(tx, hotel.id, draft.series);
  const head = legal.verifactu
    ? await verifactuChainHeadsRepository.lock(tx, hotel.id, draft.issuer.taxId)
    : null;
  // The clock is read once the locks are held, and the issue date (so the year of the number) is
  // derived from that instant: an issue that waited behind another of its series reads a later
  // time, so numbers, issue dates and the chain always run in the same order.
  const issuedAt = new Date(Math.floor(ctx.clock.now().getTime() / 1000) * 1000);
  const issueDate = hotelToday(hotel.timezone, issuedAt);
  const year = Number(issueDate.slice(0, 4));
  const sequence = await invoiceCountersRepository.next(tx, hotel.id, draft.series, year);
  const number = invoiceNumber(draft.series, year, sequence);
  const id = randomToken('inv_', 12);
  const row: InvoiceRow = {
    id,
    hotelId: hotel.id,
    number,
    series: draft.series,
    type: draft.type,
    reservationId: reservation.id,
    reservationCode: reservation.code,
    issuedAt,
    issueDate,
    currency: reservation.currency,
    issuer: draft.issuer,
    recipient: draft.recipient,
    taxes: draft.taxes,
    total: draft.total,
    language: draft.language,
    corrects: draft.corrects,
    correctedBy: null,
    reason: draft.reason,
    seq: 0,
  };
  await invoicesRepository.insert(tx, row);
  await invoiceLinesRepository.insert(tx, hotel.id, id, draft.lines);
  let record: VerifactuRecord | null = null;
  if (head) {
    const taxId = draft.issuer.taxId;
    const fields = verifactuFields({
      issuerTaxId: taxId,
      number,
      issueDate,
      type: draft.type,
      recipientTaxId: draft.recipient.taxId,
      vatTotal: draft.taxes.reduce((sum, t) => sum + t.amount, 0),
      total: draft.total,
      currencyDigits: minorDigits(reservation.currency),
      previousHash: head.lastHash,
      generatedAt: issuedAt,
      timezone: hotel.timezone,
    });
    record = {
      invoiceId: id,
      number,
      fields,
      hash: verifactuHash(fields),
      previousHash: head.lastHash,
      generatedAt: issuedAt,
    };
    await verifactuRecordsRepository.insert(tx, hotel.id, taxId, head.position + 1, record);
    await verifactuChainHeadsRepository.advance(tx, hotel.id, taxId, record.hash, head.position + 1);
  }
  await recordEvent(tx, {
    type: 'invoice.issued',
    hotelId: hotel.id,
    data: {
      invoiceId: id,
      number,
      type: draft.type,
      reservationId: reservation.code,
      total: { amount: draft.total, currency: reservation.currency },
      ...(draft.corrects ? { corrects: draft.corrects } : {}),
    },
  });
  // The guest's e-mail with the PDF (API.md 10, 13), in this transaction: it is drawn when sent.
  await queueMessages(tx, reservation, [
    {
      kind: 'invoice',
      language: draft.language,
      data: {
        reservation: reservationView(reservation),
        invoice: {
          id,
          number,
          type: draft.type,
          issueDate,
          total: { amount: draft.total, currency: reservation.currency },
          ...(draft.correctsNumber ? { corrects: draft.correctsNumber } : {}),
        },
      },
    },
  ]);
  await recordAudit(tx, ctx.audit, {
    hotelIds: [hotel.id],
    action: draft.type === 'credit_note' ? 'invoice.credit_note_issued' : 'invoice.issued',
    target: { type: 'invoice', id },
    details: {
      number,
      reservationId: reservation.code,
      total: draft.total,
      currency: reservation.currency,
      ...(draft.corrects ? { corrects: draft.corrects } : {}),
    },
  });
  return { row, lines: draft.lines, record, qrUrl: record ? qrUrlOf(row, ctx.config.verifactuQrUrl) : null };
}
