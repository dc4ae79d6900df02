import { type Static, Type } from '@sinclair/typebox';
import { AMENITIES, BED_TYPES } from '../catalog/selling.schema.ts';
import { DepositTerms, PrepaymentKind } from '../reservations/reservation.schemas.ts';

export const HotelParams = Type.Object({
  hotel: Type.String({ minLength: 1, maxLength: 64, description: 'hotel id', examples: ['harbour-view'] }),
});

const Photo = Type.Object(
  {
    src: Type.String({
      description:
        'the photo: a `/media/…` JPEG of this service (up to 960 pixels wide), or the catalogue’s URL',
    }),
    srcset: Type.String({ description: 'JPEG sizes, `url 480w, …` (empty for a URL photo)' }),
    webpSrcset: Type.Optional(Type.String({ description: 'the same sizes in WebP' })),
    width: Type.Union([Type.Integer(), Type.Null()], { description: 'pixels of `src` (null: a URL photo)' }),
    height: Type.Union([Type.Integer(), Type.Null()], { description: 'pixels of `src` (null: a URL photo)' }),
    alt: Type.String({ description: 'alternative text in the answer’s language' }),
  },
  { description: 'served sizes are cached for ever (immutable, under the content hash); never enlarged' },
);
const Photos = Type.Array(Photo);
const Text = (description: string) => Type.Optional(Type.String({ description }));

/** What a booking page needs to ask for a stay: the hotel's room types and the services it sells. */
export const PublicHotel = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone; stay dates are calendar dates in it' }),
    currency: Type.String({ description: 'ISO 4217 code of every price' }),
    checkInTime: Type.String({ description: 'HH:MM, hotel time' }),
    checkOutTime: Type.String({ description: 'HH:MM, hotel time' }),
    description: Text('in the answer’s language'),
    photos: Type.Optional(Photos),
    address: Text('postal address, in the answer’s language'),
    location: Type.Optional(Type.Object({ lat: Type.Number(), lon: Type.Number() })),
    roomTypes: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        maxAdults: Type.Integer({ description: 'per room' }),
        maxChildren: Type.Integer({ description: 'per room' }),
        maxOccupancy: Type.Integer({ description: 'guests per room' }),
        description: Text('in the answer’s language'),
        photos: Type.Optional(Photos),
        sizeM2: Type.Optional(Type.Number({ description: 'square metres' })),
        beds: Type.Optional(
          Type.Array(
            Type.Object({
              type: Type.Union(BED_TYPES.map((t) => Type.Literal(t))),
              count: Type.Integer({ minimum: 1 }),
            }),
          ),
        ),
        amenities: Type.Optional(
          Type.Array(Type.Union(AMENITIES.map((a) => Type.Literal(a))), {
            description: 'amenity codes (docs/api.md §9.1)',
          }),
        ),
      }),
    ),
    ratePlans: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        refundable: Type.Boolean(),
        prepayment: PrepaymentKind,
        deposit: Type.Optional(DepositTerms),
        balanceDueDays: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
      { description: 'the rate plans, as offers of a search name them' },
    ),
    taxes: Type.Array(
      Type.Object({
        code: Type.String(),
        name: Type.String(),
        type: Type.Union(['per_adult_per_night', 'per_stay', 'percent_included'].map((p) => Type.Literal(p))),
      }),
      { description: 'the taxes, by the `code` of price lines and included taxes' },
    ),
    services: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        pricing: Type.Union(
          ['per_stay', 'per_night', 'per_room_per_night', 'per_guest_per_night'].map((p) => Type.Literal(p)),
        ),
        amount: Type.Object({ amount: Type.Integer(), currency: Type.String() }),
      }),
    ),
  },
  { description: 'the public face of a hotel: no counts, prices of rooms or restrictions' },
);
export type PublicHotel = Static<typeof PublicHotel>;
