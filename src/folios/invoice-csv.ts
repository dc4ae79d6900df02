import { minorDigits } from '../infra/currency.ts';
import type { Invoice } from './commands/invoice-view.ts';
import { INVOICE_CSV_HEADER } from './invoices.schemas.ts';
import { aeatAmount } from './rules/verifactu.ts';

/**
 * The accountant's CSV of invoices (API.md 13, `Accept: text/csv` as 7.3): RFC 4180, CRLF, one row
 * per invoice and VAT rate, plus one with an empty rate for lines outside VAT. Text cells are quoted
 * (and a cell a spreadsheet would run as a formula prefixed with `'`); amounts are plain numbers in
 * units with a dot (`-123.40`), so a spreadsheet sums them.
 */
export function invoicesCsv(invoices: readonly Invoice[]): string {
  const rows = invoices.flatMap(({ row }) => {
    const digits = minorDigits(row.currency);
    const amount = (minor: number) => aeatAmount(minor, digits);
    const withVat = row.taxes.reduce((sum, t) => sum + t.base + t.amount, 0);
    const rates = row.taxes.map((t) => ({ rate: String(t.vatRate), base: t.base, vat: t.amount }));
    if (row.total !== withVat || rates.length === 0) {
      rates.push({ rate: '', base: row.total - withVat, vat: 0 });
    }
    return rates.map((r) => [
      text(row.number),
      text(row.type),
      text(row.issueDate),
      text(row.reservationCode),
      text(row.recipient.name),
      row.recipient.taxId ? text(row.recipient.taxId) : '',
      text(row.currency),
      r.rate,
      amount(r.base),
      amount(r.vat),
      amount(row.total),
      row.corrects ? text(row.corrects) : '',
    ]);
  });
  return `${[INVOICE_CSV_HEADER.map(text), ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`;
}

function text(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}
