/** The guest messages of API.md 10 and the languages they are written in. */
export const MESSAGE_KINDS = [
  'booking_confirmation',
  'booking_modified',
  'booking_cancelled',
  'checkin_invitation',
  'checkin_completed',
  'invoice',
  /** A deposit plan's balance the card on file refused (API.md 14.2): a link to pay it at check-in. */
  'payment_request',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Staff e-mails (API.md 12) through the same outbox: about no reservation, never a guest's. */
export const STAFF_MESSAGE_KINDS = ['staff_invitation', 'staff_password_reset'] as const;
export type StaffMessageKind = (typeof STAFF_MESSAGE_KINDS)[number];

export function isStaffMessageKind(kind: string): kind is StaffMessageKind {
  return (STAFF_MESSAGE_KINDS as readonly string[]).includes(kind);
}

/** What the hotel may send again by hand (API.md 10). */
export const RESENDABLE_KINDS = ['booking_confirmation', 'checkin_invitation'] as const;

/** The languages messages are written in: Innkeep's one list. */
export { LANGUAGES, type Language } from '../infra/i18n/languages.ts';

export type MessageStatus = 'queued' | 'sent' | 'failed';

/** The notification channel of the messages' outbox (infra/db/wake.ts). */
export const MESSAGES_CHANNEL = 'innkeep_messages';
