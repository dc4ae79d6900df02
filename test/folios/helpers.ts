import { createHash } from 'node:crypto';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import type { Json } from '../booking/helpers.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR } from '../operator-access/helpers.ts';

export const LEGAL = {
  name: 'Hotel Puerto SL',
  taxId: 'B12345678',
  address: 'Calle del Puerto 1, Madrid',
  country: 'ES',
};

/** A hotel that invoices under VERI*FACTU, in Madrid (unless overridden). */
export function invoicingHotel(overrides: Partial<HotelDef> = {}): HotelDef {
  return makeHotel({ timezone: 'Europe/Madrid', legal: { ...LEGAL, verifactu: true }, ...overrides });
}

export function call(
  t: TestApp,
  key: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers = {},
) {
  return t.inject({
    method,
    url: `${OPERATOR}${url}`,
    headers: { ...auth(key), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** AEAT's rule, written here independently of src/: the fields in order, `&`-joined, SHA-256 in upper hex. */
const FIELDS = [
  'IDEmisorFactura',
  'NumSerieFactura',
  'FechaExpedicionFactura',
  'TipoFactura',
  'CuotaTotal',
  'ImporteTotal',
  'Huella',
  'FechaHoraHusoGenRegistro',
];
export function aeatHash(fields: Record<string, string>): string {
  const text = FIELDS.map((name) => `${name}=${fields[name]}`).join('&');
  return createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
}

/** Checks a chain read from the API: each hash recomputed, each linked to the one before. */
export function chainProblems(records: Json[]): string[] {
  const problems: string[] = [];
  let previous = '';
  for (const [i, r] of records.entries()) {
    if (r.fields.Huella !== previous)
      problems.push(`record ${i} (${r.number}) chains to ${r.fields.Huella}, not ${previous}`);
    if (r.previousHash !== previous) problems.push(`record ${i} previousHash ${r.previousHash}`);
    if (aeatHash(r.fields) !== r.hash) problems.push(`record ${i} (${r.number}) hash does not recompute`);
    previous = r.hash;
  }
  return problems;
}
