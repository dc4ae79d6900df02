import type { Hotel } from '../../catalog/catalog.schema.ts';
import { namer } from '../../catalog/catalog-names.ts';
import type { Reservation } from '../../reservations/reservation.schemas.ts';
import type { Language, MessageKind } from '../message-kinds.ts';
import { type ChangeField, changesBetween } from './changes.ts';
import { formatDate, formatInstant, formatMoney } from './format.ts';
import { fill, plural, type Texts } from './texts.ts';

/** A part of a message, written the same way into its text and its HTML. */
export interface Section {
  title?: string;
  paragraphs?: string[];
  rows?: Array<[string, string]>;
  button?: { label: string; url: string };
  /** Paragraphs in small print. */
  notes?: string[];
}

export interface MessageFacts {
  kind: MessageKind;
  language: Language;
  texts: Texts;
  reservation: Reservation;
  previous?: Reservation | undefined;
  noShow?: boolean | undefined;
  guests?: Array<{ firstName: string; lastName: string }> | undefined;
  hotel: Hotel;
  hotelName: string;
  invitationLink?: string | undefined;
  now: Date;
}

const roomTypeName = (f: MessageFacts, r: Reservation) =>
  namer(f.hotel, f.language).roomType(r.roomType).name;
const ratePlanName = (f: MessageFacts, r: Reservation) =>
  namer(f.hotel, f.language).ratePlan(r.ratePlan).name;

function partyOf(t: Texts, r: Pick<Reservation, 'adults' | 'children'>): string {
  const adults = plural(t.adults, r.adults);
  return r.children.length > 0 ? `${adults}, ${plural(t.children, r.children.length)}` : adults;
}

/** The stay in brief: what every message holds besides its own news. */
export function staySection(f: MessageFacts): Section {
  const { texts: t, reservation: r, hotel } = f;
  return {
    rows: [
      [t.labels.hotel, f.hotelName],
      [t.labels.code, r.id],
      [t.labels.checkIn, `${formatDate(t, r.checkIn)}, ${fill(t.from, { time: hotel.checkInTime })}`],
      [t.labels.checkOut, `${formatDate(t, r.checkOut)}, ${fill(t.until, { time: hotel.checkOutTime })}`],
      [t.labels.rooms, `${r.rooms} × ${roomTypeName(f, r)} (${plural(t.nights, r.nights)})`],
      [t.labels.guests, partyOf(t, r)],
      [t.labels.rate, ratePlanName(f, r)],
      ...(r.specialRequests ? [[t.labels.specialRequests, r.specialRequests] as [string, string]] : []),
      // The code the stay is priced with (API.md 14.1); its discount is among the price lines.
      ...(r.promotion
        ? [[t.labels.promotion, `${r.promotion.name} (${r.promotion.code})`] as [string, string]]
        : []),
      [t.labels.total, formatMoney(t, r.total)],
    ],
  };
}

/** The price lines, named in the guest's language where the catalogue gives one. */
export function pricesSection(f: MessageFacts): Section {
  const { texts: t, reservation: r, hotel } = f;
  const names = namer(hotel, f.language);
  const nameOf = (line: Reservation['lines'][number] & { name?: string }) =>
    names.line({ ...line, name: line.name ?? line.code }).name;
  return {
    title: t.labels.prices,
    rows: r.lines.map((line) => {
      const date = 'date' in line && line.date ? `, ${line.date}` : '';
      return [`${nameOf(line)}${date} × ${line.quantity}`, formatMoney(t, line.amount)] as [string, string];
    }),
  };
}

/** The cancellation terms as they stand at `now`, and the payment. */
export function termsSection(f: MessageFacts): Section {
  const { texts: t, reservation: r } = f;
  const policy = r.cancellationPolicy;
  const penalty = formatMoney(t, 'penalty' in policy && policy.penalty ? policy.penalty : r.total);
  let terms: string;
  if (!policy.refundable) terms = t.nonRefundable;
  else if (policy.freeCancellationUntil && Date.parse(policy.freeCancellationUntil) > f.now.getTime()) {
    const when = formatInstant(t, policy.freeCancellationUntil, f.hotel.timezone);
    terms = fill(t.freeUntil, { when, penalty });
  } else terms = fill(t.penaltyFromNow, { penalty });
  return {
    title: t.labels.cancellation,
    paragraphs: [terms],
    rows: [
      [
        t.labels.payment,
        t.paymentStatus[r.payment.status as keyof Texts['paymentStatus']] ?? r.payment.status,
      ],
      [t.labels.paid, formatMoney(t, r.payment.paid)],
      [t.labels.dueAtHotel, formatMoney(t, r.payment.due)],
    ],
  };
}

function describe(f: MessageFacts, field: ChangeField, r: Reservation): string {
  const t = f.texts;
  switch (field) {
    case 'dates':
      return `${formatDate(t, r.checkIn)} – ${formatDate(t, r.checkOut)}`;
    case 'party':
      return partyOf(t, r);
    case 'rooms':
      return String(r.rooms);
    case 'roomType':
      return roomTypeName(f, r);
    case 'ratePlan':
      return ratePlanName(f, r);
    case 'services':
      return (
        r.services.map((id) => namer(f.hotel, f.language).service({ id, name: id }).name).join(', ') || '—'
      );
    case 'guest':
      return [`${r.guest.firstName} ${r.guest.lastName}`, r.guest.email, r.guest.phone]
        .filter(Boolean)
        .join(', ');
    case 'language':
      return t.languageName[r.guest.language ?? 'en'];
    case 'specialRequests':
      return r.specialRequests ?? '—';
    case 'total':
      return formatMoney(t, r.total);
  }
}

/** What changed between the previous version and this one: `field: before → after`. */
export function changesSection(f: MessageFacts): Section {
  const previous = f.previous;
  if (!previous) return {};
  return {
    title: f.texts.labels.changes,
    rows: changesBetween(previous, f.reservation).map((field) => [
      f.texts.change[field],
      `${describe(f, field, previous)} → ${describe(f, field, f.reservation)}`,
    ]),
  };
}

/** The fee and the refund of a cancellation (or a no-show). */
export function cancellationSection(f: MessageFacts): Section {
  const { texts: t, reservation: r } = f;
  const zero = { amount: 0, currency: r.total.currency };
  return {
    rows: [
      [t.labels.fee, formatMoney(t, r.cancellation?.fee ?? zero)],
      [t.labels.refund, formatMoney(t, r.cancellation?.refund ?? zero)],
      [t.labels.paid, formatMoney(t, r.payment.paid)],
      [t.labels.dueAtHotel, formatMoney(t, r.payment.due)],
    ],
  };
}

/** The guests a completed check-in recorded (names only) and what was paid. */
export function checkedInSection(f: MessageFacts): Section {
  const { texts: t, reservation: r } = f;
  return {
    title: t.labels.guestList,
    paragraphs: (f.guests ?? []).map((g) => `${g.firstName} ${g.lastName}`),
    rows: [
      [t.labels.paid, formatMoney(t, r.payment.paid)],
      [t.labels.dueAtHotel, formatMoney(t, r.payment.due)],
    ],
  };
}
