import { createHash } from 'node:crypto';

import { Temporal } from 'temporal-polyfill';

/**
 * VERI*FACTU (Real Decreto 1007/2023, AEAT's "Detalle de las especificaciones técnicas para
 * generación de la huella o hash de los registros de facturación"): the registration record of an
 * invoice, its fields in the agency's order and names, and its `Huella` (hash) chained to the
 * previous record of the same issuer. API.md section 13. Pure: no I/O, no machine time zone.
 */

/** `F1` an invoice to a recipient with a tax id, `F2` a simplified one (none), `R1` a credit note. */
export type TipoFactura = 'F1' | 'F2' | 'R1';

export function tipoFactura(
  type: 'invoice' | 'credit_note',
  recipientTaxId: string | null | undefined,
): TipoFactura {
  if (type === 'credit_note') return 'R1';
  return recipientTaxId ? 'F1' : 'F2';
}

/**
 * Minor units as units with a dot and two decimals (`1235` → `12.35`, `-12340` → `-123.40`),
 * whatever the currency's own digits: AEAT's amounts always carry two.
 */
export function aeatAmount(minor: number, currencyDigits = 2): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not an amount in minor units: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  let cents = BigInt(Math.abs(minor));
  if (currencyDigits > 2) {
    // Round half away from zero to cents (currencies of three digits; none in Spain).
    const div = 10n ** BigInt(currencyDigits - 2);
    cents = (cents + div / 2n) / div;
  } else if (currencyDigits < 2) {
    cents *= 10n ** BigInt(2 - currencyDigits);
  }
  const units = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${sign}${units}.${rest}`;
}

/** `YYYY-MM-DD` → `DD-MM-YYYY`, the agency's date. */
export function aeatDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`Not a calendar date: ${date}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}

/**
 * The instant as the hotel's wall clock shows it, to the second, with the zone's offset at that
 * instant: `2024-01-01T19:20:30+01:00` (`FechaHoraHusoGenRegistro`).
 */
export function zonedTimestamp(instant: Date, timezone: string): string {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timezone);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const wall =
    `${pad(zoned.year, 4)}-${pad(zoned.month)}-${pad(zoned.day)}` +
    `T${pad(zoned.hour)}:${pad(zoned.minute)}:${pad(zoned.second)}`;
  // Offsets of real zones are whole minutes today; seconds (historic LMT) are dropped.
  return `${wall}${zoned.offset.slice(0, 6)}`;
}

/** The hashed values of one record, keyed by the agency's names, in the agency's order. */
export interface VerifactuFields {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  FechaExpedicionFactura: string;
  TipoFactura: TipoFactura;
  CuotaTotal: string;
  ImporteTotal: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

export const FIELD_ORDER: readonly (keyof VerifactuFields)[] = [
  'IDEmisorFactura',
  'NumSerieFactura',
  'FechaExpedicionFactura',
  'TipoFactura',
  'CuotaTotal',
  'ImporteTotal',
  'Huella',
  'FechaHoraHusoGenRegistro',
];

export interface RecordInput {
  issuerTaxId: string;
  number: string;
  issueDate: string;
  type: 'invoice' | 'credit_note';
  recipientTaxId: string | null | undefined;
  /** Sum of the VAT amounts, minor units. */
  vatTotal: number;
  /** Invoice total, minor units. */
  total: number;
  currencyDigits: number;
  /** The previous record's hash of this issuer, `''` for the first. */
  previousHash: string;
  generatedAt: Date;
  timezone: string;
}

export function verifactuFields(input: RecordInput): VerifactuFields {
  return {
    IDEmisorFactura: input.issuerTaxId,
    NumSerieFactura: input.number,
    FechaExpedicionFactura: aeatDate(input.issueDate),
    TipoFactura: tipoFactura(input.type, input.recipientTaxId),
    CuotaTotal: aeatAmount(input.vatTotal, input.currencyDigits),
    ImporteTotal: aeatAmount(input.total, input.currencyDigits),
    Huella: input.previousHash,
    FechaHoraHusoGenRegistro: zonedTimestamp(input.generatedAt, input.timezone),
  };
}

/** The text hashed: `name=value` pairs joined by `&`, values as they are (not URL-encoded). */
export function chainText(fields: VerifactuFields): string {
  return FIELD_ORDER.map((name) => `${name}=${fields[name]}`).join('&');
}

/** Uppercase hex SHA-256 of the UTF-8 chain text. */
export function verifactuHash(fields: VerifactuFields): string {
  return createHash('sha256').update(chainText(fields), 'utf8').digest('hex').toUpperCase();
}

/** AEAT's QR validation address: `<base>?nif=…&numserie=…&fecha=DD-MM-YYYY&importe=…`. */
export function verifactuQrUrl(
  base: string,
  record: { taxId: string; number: string; issueDate: string; total: number; currencyDigits: number },
): string {
  const query = new URLSearchParams({
    nif: record.taxId,
    numserie: record.number,
    fecha: aeatDate(record.issueDate),
    importe: aeatAmount(record.total, record.currencyDigits),
  });
  // URLSearchParams writes a space as `+`; the agency's examples use percent-encoding throughout.
  return `${base}?${query.toString().replace(/\+/g, '%20')}`;
}
