import en from '../i18n/en.json' with { type: 'json' };
import es from '../i18n/es.json' with { type: 'json' };
import pt from '../i18n/pt.json' with { type: 'json' };
import type { Language, MessageKind, StaffMessageKind } from '../message-kinds.ts';
import type { ChangeField } from './changes.ts';

/** A count's forms: `{n}` is the number. */
export interface PluralForms {
  one: string;
  other: string;
}

/**
 * Every sentence of the guest messages (API.md 10) and the staff e-mails (API.md 12), as `messages/i18n/<lang>.json` holds it for a
 * translator to edit, one file per language like the pages' `web/i18n/`. `{x}` are filled by the
 * renderer. Each file is type-checked against this shape where it is loaded below (a missing text
 * fails the build), and a test checks every language has every key with the same placeholders.
 */
export interface Texts {
  locale: string;
  subject: Record<MessageKind, string>;
  intro: Record<MessageKind, string>;
  greeting: string;
  noShowIntro: string;
  labels: {
    hotel: string;
    code: string;
    checkIn: string;
    checkOut: string;
    rooms: string;
    guests: string;
    rate: string;
    promotion: string;
    total: string;
    prices: string;
    cancellation: string;
    payment: string;
    paid: string;
    dueAtHotel: string;
    changes: string;
    fee: string;
    refund: string;
    guestList: string;
    specialRequests: string;
    amountToPay: string;
  };
  from: string;
  until: string;
  adults: PluralForms;
  children: PluralForms;
  nights: PluralForms;
  freeUntil: string;
  nonRefundable: string;
  penaltyFromNow: string;
  paymentStatus: Record<'unpaid' | 'paid' | 'refunded' | 'partially_refunded', string>;
  change: Record<ChangeField, string>;
  languageName: Record<Language, string>;
  invitationButton: string;
  invitationNote: string;
  paymentRequestButton: string;
  paymentRequestNote: string;
  calendarNote: string;
  replyNote: string;
  noReplyNote: string;
  /** The `invoice` e-mail (API.md 13): a credit note's own subject and intro, and its facts' labels. */
  invoice: {
    creditSubject: string;
    creditIntro: string;
    attachmentNote: string;
    invoice: string;
    creditNote: string;
    issueDate: string;
    invoiceTotal: string;
  };
  /** The notice to the address a reservation's e-mail was changed from (`address-notice.ts`). */
  addressNotice: { subject: string; greeting: string; intro: string; warning: string };
  /** The staff e-mails (API.md 12, `staff-message.ts`): `{name}`, and `{by}` who invited. */
  staff: Record<StaffMessageKind, StaffTexts>;
}

/** One staff e-mail's texts. */
export interface StaffTexts {
  subject: string;
  greeting: string;
  body: string;
  button: string;
  expiry: string;
  ignore: string;
}

export const TEXTS: Record<Language, Texts> = { en, es, pt };

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}

/** The singular or plural form for `n`. */
export function plural(forms: PluralForms, n: number): string {
  return fill(n === 1 ? forms.one : forms.other, { n });
}
