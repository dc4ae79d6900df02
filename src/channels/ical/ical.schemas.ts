import { type Static, Type } from '@sinclair/typebox';
import { Name, StorableString } from '../../infra/http/text-schemas.ts';
import type { ImportRow } from './ical-imports.repository.ts';

/** The iCal feeds' wire format (docs/api.md §9.1). */

const RoomTypeId = StorableString({
  minLength: 1,
  maxLength: 64,
  description: 'a room type id of the hotel',
});

export const CreateFeedBody = Type.Object({ roomTypeId: RoomTypeId }, { additionalProperties: false });
export type CreateFeedBody = Static<typeof CreateFeedBody>;

const FeedFields = {
  id: Type.String({ description: '`icf_…`' }),
  roomTypeId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
};

export const IcalFeed = Type.Object(FeedFields);
export const CreatedFeed = Type.Object({
  ...FeedFields,
  url: Type.String({
    description:
      'the secret feed URL (`PUBLIC_BASE_URL/api/v1/ical/{token}.ics`), shown only here: give it to the rental platform',
  }),
});
export const FeedList = Type.Object({ data: Type.Array(IcalFeed) });

export const CreateImportBody = Type.Object(
  {
    roomTypeId: RoomTypeId,
    url: StorableString({
      minLength: 1,
      maxLength: 2000,
      description: 'the platform’s export URL: `https`, public addresses only (unless WEBHOOK_ALLOW_PRIVATE)',
    }),
    name: Name({ maxLength: 200, description: 'e.g. the platform’s name' }),
  },
  { additionalProperties: false },
);
export type CreateImportBody = Static<typeof CreateImportBody>;

const LastFetch = Type.Union(
  [
    Type.Object({
      at: Type.String({ format: 'date-time' }),
      status: Type.Union([Type.Literal('ok'), Type.Literal('failed')]),
      error: Type.Union([Type.String(), Type.Null()], { description: 'why the fetch failed (holds kept)' }),
      events: Type.Union([Type.Integer(), Type.Null()], {
        description: 'events holding rooms after the last good fetch',
      }),
      conflicts: Type.Union([Type.Integer(), Type.Null()], {
        description:
          'nights of the room type overbooked (holds that found no room left) after the last good fetch',
      }),
    }),
    Type.Null(),
  ],
  { description: 'the last fetch (`null` before the first)' },
);

export const IcalImport = Type.Object({
  id: Type.String({ description: '`ici_…`' }),
  roomTypeId: Type.String(),
  host: Type.String({
    description:
      'the host of the feed’s URL: the URL itself (its query string is often the platform’s secret) is kept encrypted and never shown again',
  }),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastFetch: LastFetch,
});
export type IcalImport = Static<typeof IcalImport>;
export const ImportList = Type.Object({ data: Type.Array(IcalImport) });

export const FeedIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const IcalFileParams = Type.Object({
  file: Type.String({ maxLength: 100, description: '`{token}.ics`' }),
});

export const IcalDocument = Type.String({
  description: 'an RFC 5545 calendar: one all-day VEVENT `Not available` per run of unsellable nights',
  examples: [
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Innkeep//Innkeep//EN\r\nBEGIN:VEVENT\r\nUID:innkeep-2027-03-01-icf_…@booking.example.com\r\nDTSTAMP:20270101T000000Z\r\nDTSTART;VALUE=DATE:20270301\r\nDTEND;VALUE=DATE:20270304\r\nSUMMARY:Not available\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  ],
});

export function importView(row: ImportRow): IcalImport {
  return {
    id: row.id,
    roomTypeId: row.roomTypeId,
    host: row.host,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastFetch:
      row.lastFetchAt && row.lastStatus
        ? {
            at: row.lastFetchAt.toISOString(),
            status: row.lastStatus,
            error: row.lastError,
            events: row.lastEvents,
            conflicts: row.lastConflicts,
          }
        : null,
  };
}
