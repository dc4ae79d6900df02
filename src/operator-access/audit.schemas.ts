import { type Static, Type } from '@sinclair/typebox';
import { EXAMPLE_KEY_ID, HotelIds, Instant } from './keys.schemas.ts';
import { HotelId } from './operator.schemas.ts';

const ACTOR_TYPES = ['staff', 'key', 'guest', 'channel', 'system'] as const;

export const AuditActorSchema = Type.Object(
  {
    type: Type.Union(
      ACTOR_TYPES.map((t) => Type.Literal(t)),
      { description: 'a signed-in person, an operator key, a guest, a channel, or the service itself' },
    ),
    id: Type.String({
      description:
        '`usr_…`, `key_…`, the guest’s reservation code, the channel (`alpinebits:key_…`, `ical:<feed>`), or `system` / `cli` / `bootstrap`',
    }),
    name: Type.String({ description: 'the person’s or key’s name at the time, or the channel’s' }),
  },
  { title: 'AuditActor' },
);

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'entry id `aud_…`' }),
    at: Instant('when it happened'),
    actor: AuditActorSchema,
    hotelId: Type.Union([HotelId, Type.Null()], {
      description: 'the hotel; `null` when the entry concerns several hotels or every hotel (see `hotelIds`)',
    }),
    hotelIds: HotelIds,
    action: Type.String({
      description:
        'what was done, `noun.verb_past`: `reservation.created` / `modified` / `cancelled` / `arrived` / `departed` / `no_show`, `message.resent`, `calendar.updated`, `rate_plans.updated`, `promotion.saved` / `deleted`, `ical_feed.created` / `deleted`, `ical_import.created` / `deleted` / `synced`, `webhook.created` / `deleted`, `folio.charge_added` / `charge_voided` / `payment_recorded` / `card_charged`, `invoice.issued` / `credit_note_issued`, `guest_register.read`, `guest_identity.purged`, `staff.invited` / `modified` / `invitation_accepted` / `signed_in` / `signed_out` / `password_changed` / `password_reset_requested` / `password_reset` / `passkey_added` / `passkey_removed`, `key.created` / `revoked`, `signing_key.rotated` (docs/api.md 11.5 says what each holds)',
    }),
    target: Type.Object(
      {
        type: Type.String({
          description:
            '`reservation`, `calendar`, `rate_plans`, `promotion`, `folio`, `invoice`, `guest_register`, `hotel`, `ical_feed`, `ical_import`, `webhook`, `staff`, `key`, `signing_key`, …',
        }),
        id: Type.String({ description: 'its public id' }),
      },
      { description: 'what was changed or read' },
    ),
    changes: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2 }), {
        description: '`{ "<field>": [before, after] }` of the fields that changed',
      }),
    ),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'ids, dates and counts of the action; never identity data',
      }),
    ),
    requestId: Type.Union([Type.String(), Type.Null()], {
      description: 'the `X-Request-Id` of the request that made the change; `null` for older entries',
    }),
  },
  {
    title: 'AuditEntry',
    examples: [
      {
        id: 'aud_5t1n8c2v6m3k9x4q0w7b',
        at: '2027-03-01T09:30:00.000Z',
        actor: { type: 'staff', id: 'usr_3k9x4q0w7b5t1n8c', name: 'Ana Ruiz' },
        hotelId: 'harbour-view',
        hotelIds: ['harbour-view'],
        action: 'reservation.modified',
        target: { type: 'reservation', id: 'R7K3M9Q2X' },
        changes: { checkOut: ['2027-03-04', '2027-03-05'] },
        requestId: '5d0b7c0e-2f4c-4d8e-9a3f-1b2c3d4e5f60',
      },
      {
        id: 'aud_0w7b5t1n8c2v6m3k9x4q',
        at: '2027-03-01T08:00:00.000Z',
        actor: { type: 'system', id: 'bootstrap', name: 'First start' },
        hotelId: null,
        hotelIds: null,
        action: 'key.created',
        target: { type: 'key', id: EXAMPLE_KEY_ID },
        details: { name: 'Front desk', scopes: ['reservations:read'] },
        requestId: null,
      },
    ],
  },
);

const DAY_OR_INSTANT = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$';

export const AuditQuery = Type.Object(
  {
    hotelId: Type.Optional(HotelId),
    actorId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'entries of one actor: `usr_…`, `key_…`, a reservation code, …',
      }),
    ),
    action: Type.Optional(
      Type.String({
        pattern: '^[a-z_]+\\.[a-z_]+$',
        maxLength: 100,
        description: 'e.g. `reservation.cancelled`',
      }),
    ),
    from: Type.Optional(
      Type.String({
        pattern: DAY_OR_INSTANT,
        description: 'entries at or after this instant (RFC 3339), or from the start of this UTC date',
        examples: ['2027-03-01'],
      }),
    ),
    to: Type.Optional(
      Type.String({
        pattern: DAY_OR_INSTANT,
        description: 'entries at or before this instant (RFC 3339), or to the end of this UTC date',
        examples: ['2027-03-31'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'entries per page (default 50)' }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description:
          '`nextCursor` of the previous page; it carries the filters, so they may be left out (if sent, they must be the same)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditPage = Type.Object(
  {
    data: Type.Array(AuditEntrySchema, { description: 'newest first' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as `cursor` for the next page; `null` on the last page',
    }),
  },
  { title: 'AuditLogPage' },
);
