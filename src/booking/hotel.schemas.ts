import { type Static, Type } from '@sinclair/typebox';

export const HotelParams = Type.Object({
  hotel: Type.String({ minLength: 1, maxLength: 64, description: 'hotel id', examples: ['harbour-view'] }),
});

/** What a booking page needs to ask for a stay: the hotel's room types and the services it sells. */
export const PublicHotel = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone; stay dates are calendar dates in it' }),
    currency: Type.String({ description: 'ISO 4217 code of every price' }),
    checkInTime: Type.String({ description: 'HH:MM, hotel time' }),
    checkOutTime: Type.String({ description: 'HH:MM, hotel time' }),
    roomTypes: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        maxAdults: Type.Integer({ description: 'per room' }),
        maxChildren: Type.Integer({ description: 'per room' }),
        maxOccupancy: Type.Integer({ description: 'guests per room' }),
      }),
    ),
    ratePlans: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        refundable: Type.Boolean(),
        prepayment: Type.Union([Type.Literal('none'), Type.Literal('full')]),
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
