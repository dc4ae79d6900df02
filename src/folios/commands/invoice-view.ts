import { minorDigits } from '../../infra/currency.ts';
import type { Executor } from '../../infra/db/database.ts';
import { type InvoiceLine, invoiceLinesRepository } from '../invoice-lines.repository.ts';
import type { InvoiceRow } from '../invoices.repository.ts';
import { verifactuQrUrl } from '../rules/verifactu.ts';
import { type VerifactuRecord, verifactuRecordsRepository } from '../verifactu-records.repository.ts';

/** An invoice or credit note as issued, with its lines and, under VERI*FACTU, its record. */
export interface Invoice {
  row: InvoiceRow;
  lines: InvoiceLine[];
  record: VerifactuRecord | null;
  qrUrl: string | null;
}

/** The QR address of a record (API.md 13), from VERIFACTU_QR_URL. */
export function qrUrlOf(row: InvoiceRow, qrBase: string): string {
  return verifactuQrUrl(qrBase, {
    taxId: row.issuer.taxId ?? '',
    number: row.number,
    issueDate: row.issueDate,
    total: row.total,
    currencyDigits: minorDigits(row.currency),
  });
}

export async function loadInvoice(ex: Executor, row: InvoiceRow, qrBase: string): Promise<Invoice> {
  const [lines, record] = await Promise.all([
    invoiceLinesRepository.ofInvoice(ex, row.hotelId, row.id),
    verifactuRecordsRepository.ofInvoice(ex, row.hotelId, row.id),
  ]);
  return { row, lines, record, qrUrl: record ? qrUrlOf(row, qrBase) : null };
}
