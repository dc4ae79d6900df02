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
