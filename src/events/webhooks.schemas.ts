import { type Static, Type } from '@sinclair/typebox';
import { FreeText, StorableString } from '../infra/http/text-schemas.ts';
import { HotelId } from '../operator-access/operator.schemas.ts';
import { EVENT_TYPES } from './event-types.ts';

const Instant = (description: string) => Type.String({ format: 'date-time', description });
const EXAMPLE_EVENT_ID = 'evt_5q8zk1m3c7v2x9bn4t6h0wrd';
const EXAMPLE_ENDPOINT_ID = 'we_3k7m1q9x4c2v8b5n6t0h';

const eventExample = {
  id: EXAMPLE_EVENT_ID,
  type: 'checkin.completed',
  createdAt: '2027-03-01T09:30:00.000Z',
  hotelId: 'harbour-view',
  data: {
    reservation: {
      id: '33ZR4WQVE',
      hotelId: 'harbour-view',
      checkIn: '2027-03-01',
      checkOut: '2027-03-04',
      status: 'confirmed',
    },
    checkin: { status: 'completed' },
  },
};

export const EventSchema = Type.Object(
  {
    id: Type.String({ description: 'the event id `evt_…`; also sent as `Innkeep-Event-Id`' }),
    type: Type.String({ description: `one of ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}` }),
    createdAt: Instant('when the change was made'),
    hotelId: Type.String(),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'what changed (docs/api.md §8.1); never a secret: no access token, no session id, identity data masked',
    }),
  },
  {
    title: 'Event',
    description: 'A change of a reservation, check-in or calendar',
    examples: [eventExample],
  },
);

export const FeedQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'the id of the last event seen (`nextCursor`); absent = from the oldest kept',
      }),
    ),
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'comma-separated event types or `prefix.*`, e.g. `reservation.created,checkin.*`',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 500, description: 'events per page (default 100)' }),
    ),
  },
  { additionalProperties: false },
);

export const FeedPage = Type.Object(
  {
    data: Type.Array(EventSchema, { description: 'in commit order' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description:
        'pass as `after` to poll for newer events: the last event’s id, or `after` again when there was none',
    }),
  },
  { examples: [{ data: [eventExample], nextCursor: EXAMPLE_EVENT_ID }] },
);

const EventPattern = StorableString({
  minLength: 1,
  maxLength: 100,
  description: 'an event type, or `prefix.*` for every type under it (`reservation.*`)',
});

export const CreateEndpointBody = Type.Object(
  {
    url: StorableString({
      minLength: 1,
      maxLength: 2048,
      description:
        'an `https` URL resolving to a public address (`http` and private addresses only with WEBHOOK_ALLOW_PRIVATE)',
    }),
    events: Type.Array(EventPattern, { minItems: 1, maxItems: 50 }),
    hotelIds: Type.Optional(
      Type.Array(HotelId, {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description: 'only these hotels’ events; absent = every hotel the key sees',
      }),
    ),
    description: Type.Optional(FreeText({ maxLength: 500 })),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://pms.example.com/innkeep', events: ['reservation.*', 'checkin.completed'] }],
  },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

const endpointExample = {
  id: EXAMPLE_ENDPOINT_ID,
  url: 'https://pms.example.com/innkeep',
  events: ['reservation.*', 'checkin.completed'],
  hotelIds: ['harbour-view'],
  description: null,
  createdAt: '2027-03-01T09:30:00.000Z',
};

const endpointProperties = {
  id: Type.String({ description: 'the endpoint id `we_…`' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  hotelIds: Type.Union([Type.Array(Type.String()), Type.Null()], { description: '`null` = every hotel' }),
  description: Type.Union([Type.String(), Type.Null()]),
  createdAt: Instant('when the endpoint was created'),
};

export const EndpointSchema = Type.Object(endpointProperties, {
  title: 'WebhookEndpoint',
  description: 'A webhook endpoint, never with its secret',
  examples: [endpointExample],
});

export const CreatedEndpoint = Type.Object(
  {
    ...endpointProperties,
    secret: Type.String({
      description: 'the signing secret `whsec_…`, shown only in this answer (stored encrypted)',
    }),
  },
  { examples: [{ ...endpointExample, secret: 'whsec_9x2m4k7q1c8v5bn3t6h0wrdzy5e7g1' }] },
);

export const EndpointList = Type.Object({
  data: Type.Array(EndpointSchema, { description: 'oldest first' }),
});

export const EndpointParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'the endpoint id `we_…`', examples: [EXAMPLE_ENDPOINT_ID] }),
});

export const AttemptsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'attempts (default 50)' })),
  },
  { additionalProperties: false },
);

export const AttemptList = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        eventId: Type.String(),
        attempt: Type.Integer({ description: '1 for the first attempt at this event, then 2, …' }),
        attemptedAt: Instant('when the attempt started'),
        status: Type.Union([Type.Integer(), Type.Null()], {
          description: 'the HTTP status answered, or null',
        }),
        error: Type.Union([Type.String(), Type.Null()], {
          description: 'why there was no status (timeout, refused connection, address refused), or null',
        }),
        durationMs: Type.Integer(),
      }),
      { description: 'newest first' },
    ),
  },
  {
    examples: [
      {
        data: [
          {
            eventId: EXAMPLE_EVENT_ID,
            attempt: 2,
            attemptedAt: '2027-03-01T09:31:02.000Z',
            status: 200,
            error: null,
            durationMs: 84,
          },
          {
            eventId: EXAMPLE_EVENT_ID,
            attempt: 1,
            attemptedAt: '2027-03-01T09:30:01.000Z',
            status: null,
            error: 'ECONNREFUSED',
            durationMs: 3,
          },
        ],
      },
    ],
  },
);
