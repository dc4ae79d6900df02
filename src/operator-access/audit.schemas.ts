import { Type } from '@sinclair/typebox';
import { EXAMPLE_KEY_ID, HotelIds, Instant } from './keys.schemas.ts';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'entry id `aud_…`' }),
    keyId: Type.String({ description: 'the key that acted (`key_…`), or `cli` / `bootstrap`' }),
    action: Type.String({ description: '`key.created`, `key.revoked`, `guest_register.read`, …' }),
    hotelIds: HotelIds,
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'ids, dates and counts of the action; never identity data',
    }),
    createdAt: Instant('when it happened'),
  },
  {
    title: 'AuditEntry',
    examples: [
      {
        id: 'aud_5t1n8c2v6m3k9x4q0w7b',
        keyId: 'bootstrap',
        action: 'key.created',
        hotelIds: ['harbour-view'],
        details: { keyId: EXAMPLE_KEY_ID, name: 'Front desk', scopes: ['reservations:read'] },
        createdAt: '2027-03-01T09:30:00.000Z',
      },
    ],
  },
);

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'entries per page (default 50)' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: '`nextCursor` of the previous page' }),
    ),
  },
  { additionalProperties: false },
);

export const AuditPage = Type.Object(
  {
    data: Type.Array(AuditEntrySchema, { description: 'newest first' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as `cursor` for the next page',
    }),
  },
  { title: 'AuditLogPage' },
);
