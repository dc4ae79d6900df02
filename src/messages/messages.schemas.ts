import { type Static, Type } from '@sinclair/typebox';
import { LANGUAGES } from '../infra/i18n/languages.ts';
import { MESSAGE_KINDS } from './message-kinds.ts';

/** The operator API of guest messages (API.md 10). */

const literalUnion = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v)));

export const GuestMessage = Type.Object(
  {
    id: Type.String({ examples: ['msg_3k9f0a1b2c3d4e5f6g7h8j9k0m'] }),
    kind: literalUnion(MESSAGE_KINDS),
    to: Type.String({ description: 'the guest’s e-mail address at the time', examples: ['ana@example.com'] }),
    language: literalUnion(LANGUAGES),
    status: literalUnion(['queued', 'sent', 'failed'] as const),
    attempts: Type.Integer({ minimum: 0 }),
    lastError: Type.Union([Type.String(), Type.Null()], {
      description: 'what the last failed attempt was told (an SMTP reply, a connection error)',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    sendAfter: Type.String({
      format: 'date-time',
      description:
        'when it is (or was) due: the invitation’s scheduled time, or the next retry of a queued message',
    }),
    automatic: Type.Boolean({
      description: 'sent by the service itself; false when the hotel asked for it again',
    }),
  },
  { title: 'GuestMessage' },
);

export const GuestMessageList = Type.Object({ data: Type.Array(GuestMessage) });

export const ResendRequest = Type.Object(
  {
    kind: Type.Union([Type.Literal('booking_confirmation'), Type.Literal('checkin_invitation')], {
      description: 'the message to send again, as the reservation stands now',
    }),
  },
  { additionalProperties: false },
);
export type ResendRequest = Static<typeof ResendRequest>;
