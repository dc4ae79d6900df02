/**
 * A folio's lines as the reservation gives them (API.md 13), pure. The reservation's lines that no
 * invoice took are never stored: they are read from the reservation as it stands, so re-pricing a
 * stay replaces exactly what is not yet invoiced. Each line has a `sourceKey` naming its place in
 * the reservation (type, code, date and its rank among lines of the same three), by which a line an
 * invoice froze hides the reservation's own line of the same key.
 */

export type FolioLineType = 'room' | 'service' | 'tax' | 'fee' | 'charge';

export interface FolioLine {
  id: string;
  type: FolioLineType;
  /** The reservation line it stands for; null for a desk charge. */
  sourceKey: string | null;
  code: string | null;
  description: string;
  date: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  vatRate: number | null;
  invoiceId: string | null;
  voided: boolean;
}

/** A reservation line as stored with the stay (API.md 2.2). */
export interface StayLine {
  type: 'room' | 'discount' | 'service' | 'tax';
  code: string;
  name: string;
  date?: string | undefined;
  quantity: number;
  unitAmount: { amount: number };
  amount: { amount: number };
}

export interface ReservationFacts {
  status: 'confirmed' | 'cancelled';
  checkIn: string;
  lines: readonly StayLine[];
  /** A cancellation's or no-show's fee (minor units) and its hotel-local date. */
  fee: { amount: number; date: string; noShow: boolean } | null;
}

/** The hotel's VAT: the rate of its (first) `percent_included` tax; null when it has none. */
export function hotelVatRate(taxes: readonly { type: string; rate?: number }[]): number | null {
  const vat = taxes.find((t) => t.type === 'percent_included');
  return vat?.rate ?? null;
}

/** The VAT rates a desk charge may carry: the hotel's `percent_included` taxes'. */
export function hotelVatRates(taxes: readonly { type: string; rate?: number }[]): number[] {
  return taxes.flatMap((t) => (t.type === 'percent_included' && t.rate !== undefined ? [t.rate] : []));
}

/**
 * The reservation's lines not yet on the folio as stored: a confirmed stay's room, service and tax
 * lines; a cancelled (or no-show) one's fee. Rooms and services include the hotel's VAT; the
 * per-person and per-stay taxes (a tourist tax) are outside it.
 */
export function reservationLines(
  r: ReservationFacts,
  vatRate: number | null,
  idOf: (sourceKey: string) => string,
): Omit<FolioLine, 'invoiceId' | 'voided'>[] {
  const ranks = new Map<string, number>();
  const keyed = (type: string, code: string, date: string) => {
    const base = `${type}:${code}:${date}`;
    const rank = ranks.get(base) ?? 0;
    ranks.set(base, rank + 1);
    return `${base}:${rank}`;
  };
  if (r.status === 'cancelled') {
    if (!r.fee || r.fee.amount <= 0) return [];
    const code = r.fee.noShow ? 'no_show' : 'cancellation';
    const sourceKey = keyed('fee', code, r.fee.date);
    return [
      {
        id: idOf(sourceKey),
        type: 'fee',
        sourceKey,
        code,
        description: r.fee.noShow ? 'No-show fee' : 'Cancellation fee',
        date: r.fee.date,
        quantity: 1,
        unitAmount: r.fee.amount,
        amount: r.fee.amount,
        vatRate,
      },
    ];
  }
  return r.lines.map((line) => {
    const date = line.date ?? r.checkIn;
    const sourceKey = keyed(line.type, line.code, date);
    return {
      id: idOf(sourceKey),
      // A promotion's discount comes off the rooms: on the folio it is a (negative) room line.
      type: line.type === 'discount' ? 'room' : line.type,
      sourceKey,
      code: line.code,
      description: line.name,
      date,
      quantity: line.quantity,
      unitAmount: line.unitAmount.amount,
      amount: line.amount.amount,
      vatRate: line.type === 'tax' ? null : vatRate,
    };
  });
}

/**
 * The folio: the stored lines (desk charges, and reservation lines invoices froze) and what the
 * reservation holds beyond them. A reservation line whose key invoices froze shows only the
 * quantity they did not take (a stay made longer adds nights of breakfast), at its price now, as a
 * part keyed `key/n`; a quantity they took is never taken back here (a credit note does that).
 * In date order, stored first on a tie.
 */
export function folioLines(
  stored: readonly FolioLine[],
  derived: readonly Omit<FolioLine, 'invoiceId' | 'voided'>[],
  idOf: (sourceKey: string) => string = (key) => key,
): FolioLine[] {
  const taken = new Map<string, { quantity: number; parts: number }>();
  for (const line of stored) {
    if (!line.sourceKey) continue;
    const base = line.sourceKey.split('/')[0] as string;
    const known = taken.get(base) ?? { quantity: 0, parts: 0 };
    taken.set(base, { quantity: known.quantity + line.quantity, parts: known.parts + 1 });
  }
  const open = derived.flatMap((l): FolioLine[] => {
    const base = l.sourceKey ?? '';
    const frozen = taken.get(base);
    if (!frozen) return [{ ...l, invoiceId: null, voided: false }];
    const quantity = l.quantity - frozen.quantity;
    if (quantity <= 0) return [];
    const sourceKey = `${base}/${frozen.parts}`;
    return [
      {
        ...l,
        id: idOf(sourceKey),
        sourceKey,
        quantity,
        amount: l.unitAmount * quantity,
        invoiceId: null,
        voided: false,
      },
    ];
  });
  const all = [...stored, ...open];
  return all
    .map((line, index) => ({ line, index }))
    .sort((a, b) => (a.line.date < b.line.date ? -1 : a.line.date > b.line.date ? 1 : a.index - b.index))
    .map(({ line }) => line);
}

/** Lines an invoice would take now: neither invoiced nor voided. */
export function invoiceable(lines: readonly FolioLine[]): FolioLine[] {
  return lines.filter((l) => l.invoiceId === null && !l.voided);
}
