import type { Hotel } from '../../catalog/catalog.schema.ts';
import { nameIn } from '../../catalog/localized-name.ts';
import { zonedInstant } from '../../dates/dates.ts';
import { minorDigits } from '../../infra/currency.ts';
import type { Reservation } from '../../reservations/reservation.schemas.ts';
import type { Language, MessageKind } from '../message-kinds.ts';
import { formatDate, formatMoney } from './format.ts';
import { reservationCalendar } from './ics.ts';
import { lodgingReservationJsonLd, utcOffset } from './json-ld.ts';
import { htmlOf, textOf } from './layout.ts';
import {
  cancellationSection,
  changesSection,
  checkedInSection,
  type MessageFacts,
  pricesSection,
  type Section,
  staySection,
  termsSection,
} from './sections.ts';
import { fill, TEXTS } from './texts.ts';

export interface MessageToRender {
  kind: MessageKind;
  language: Language;
  /** The reservation as the message tells it (as it stood at the change; now, for an invitation). */
  reservation: Reservation;
  previous?: Reservation | undefined;
  noShow?: boolean | undefined;
  guests?: Array<{ firstName: string; lastName: string }> | undefined;
  hotel: Hotel;
  /** PUBLIC_BASE_URL/checkin/{session}: only in the invitation and the payment request. */
  invitationLink?: string | undefined;
  /** What a payment request asks for (API.md 14.2). */
  amount?: { amount: number; currency: string } | undefined;
  publicBaseUrl: string;
  now: Date;
  /** The `invoice` e-mail's invoice or credit note (its PDF is attached by the worker). */
  invoice?: InvoiceFacts | undefined;
}

/** What the `invoice` e-mail tells of the invoice it carries (API.md 13), as queued at issue. */
export interface InvoiceFacts {
  number: string;
  type: 'invoice' | 'credit_note';
  issueDate: string;
  total: { amount: number; currency: string };
  /** The number of the invoice a credit note annuls. */
  corrects?: string | undefined;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  /** reservation.ics of the booking messages; null for the check-in ones. */
  calendar: string | null;
}

const BOOKING_KINDS: readonly MessageKind[] = [
  'booking_confirmation',
  'booking_modified',
  'booking_cancelled',
];

/** A guest message (API.md 10) in the guest's language: subject, text and HTML parts, calendar file. */
export function renderMessage(m: MessageToRender): RenderedMessage {
  const texts = TEXTS[m.language];
  const hotelName = nameIn(m.hotel, m.language);
  const r = m.reservation;
  const facts: MessageFacts = { ...m, texts, hotelName };
  const credit = m.invoice?.type === 'credit_note';
  const values = {
    hotel: hotelName,
    code: r.id,
    number: m.invoice?.number ?? '',
    corrects: m.invoice?.corrects ?? '',
  };
  const subject = fill(credit ? texts.invoice.creditSubject : texts.subject[m.kind], values);
  const intro =
    m.kind === 'booking_cancelled' && m.noShow
      ? fill(texts.noShowIntro, { hotel: hotelName, date: r.checkIn })
      : fill(credit ? texts.invoice.creditIntro : texts.intro[m.kind], values);
  const opening: Section = { paragraphs: [fill(texts.greeting, { name: r.guest.firstName }), intro] };
  const booking = BOOKING_KINDS.includes(m.kind);
  const sections: Section[] = [opening];
  switch (m.kind) {
    case 'booking_confirmation':
      sections.push(staySection(facts), pricesSection(facts), termsSection(facts));
      break;
    case 'booking_modified':
      sections.push(changesSection(facts), staySection(facts), pricesSection(facts), termsSection(facts));
      break;
    case 'booking_cancelled':
      sections.push(cancellationSection(facts), staySection(facts));
      break;
    case 'checkin_invitation':
      sections.push(
        { button: { label: texts.invitationButton, url: m.invitationLink ?? m.publicBaseUrl } },
        staySection(facts),
        { notes: [texts.invitationNote] },
      );
      break;
    case 'checkin_completed':
      sections.push(checkedInSection(facts), staySection(facts));
      break;
    case 'invoice':
      if (m.invoice) {
        const i = m.invoice;
        sections.push({
          rows: [
            [credit ? texts.invoice.creditNote : texts.invoice.invoice, i.number],
            [texts.invoice.issueDate, formatDate(texts, i.issueDate)],
            [texts.invoice.invoiceTotal, formatMoney(texts, i.total)],
          ],
          notes: [texts.invoice.attachmentNote],
        });
      }
      break;
    case 'payment_request':
      sections.push(
        { rows: [[texts.labels.amountToPay, formatMoney(texts, m.amount ?? r.payment.due)]] },
        { button: { label: texts.paymentRequestButton, url: m.invitationLink ?? m.publicBaseUrl } },
        staySection(facts),
        { notes: [texts.paymentRequestNote] },
      );
      break;
  }
  const footer: string[] = [];
  if (booking) footer.push(texts.calendarNote);
  footer.push(fill(m.hotel.email ? texts.replyNote : texts.noReplyNote, { hotel: hotelName }));
  sections.push({ notes: footer });

  const cancelled = m.kind === 'booking_cancelled' || r.status === 'cancelled';
  const host = new URL(m.publicBaseUrl).hostname;
  const calendar = booking
    ? reservationCalendar({
        code: r.id,
        host,
        checkIn: r.checkIn,
        checkOut: r.checkOut,
        version: r.version,
        cancelled,
        summary: `${hotelName} (${r.id})`,
        location: hotelName,
        description: `${r.rooms} × ${r.roomType.name}`,
        stamp: m.now,
      })
    : null;
  const jsonLd = booking
    ? lodgingReservationJsonLd({
        code: r.id,
        cancelled,
        checkIn: r.checkIn,
        checkOut: r.checkOut,
        checkInTime: m.hotel.checkInTime,
        checkOutTime: m.hotel.checkOutTime,
        checkInOffset: utcOffset(
          m.hotel.timezone,
          zonedInstant(r.checkIn, m.hotel.checkInTime, m.hotel.timezone),
        ),
        checkOutOffset: utcOffset(
          m.hotel.timezone,
          zonedInstant(r.checkOut, m.hotel.checkOutTime, m.hotel.timezone),
        ),
        guestName: `${r.guest.firstName} ${r.guest.lastName}`,
        hotelName,
        hotelEmail: m.hotel.email,
        total: r.total,
        fractionDigits: minorDigits(r.total.currency),
        url: `${m.publicBaseUrl}/book/${encodeURIComponent(m.hotel.id)}`,
      })
    : null;
  return {
    subject,
    text: textOf(subject, sections),
    html: htmlOf({ language: m.language, title: subject, heading: subject, sections, jsonLd }),
    calendar,
  };
}
