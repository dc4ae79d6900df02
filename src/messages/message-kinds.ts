/** The guest messages of API.md 10 and the languages they are written in. */
export const MESSAGE_KINDS = [
  'booking_confirmation',
  'booking_modified',
  'booking_cancelled',
  'checkin_invitation',
  'checkin_completed',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** What the hotel may send again by hand (API.md 10). */
export const RESENDABLE_KINDS = ['booking_confirmation', 'checkin_invitation'] as const;

/** The languages messages are written in: Innkeep's one list. */
export { LANGUAGES, type Language } from '../infra/i18n/languages.ts';

export type MessageStatus = 'queued' | 'sent' | 'failed';

/** The notification channel of the messages' outbox (infra/db/wake.ts). */
export const MESSAGES_CHANNEL = 'innkeep_messages';
