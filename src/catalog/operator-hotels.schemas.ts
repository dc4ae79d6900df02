import { Type } from '@sinclair/typebox';

export const OperatorHotel = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone of the hotel' }),
    currency: Type.String({ description: 'ISO 4217 currency of its prices' }),
  },
  {
    title: 'OperatorHotel',
    examples: [{ id: 'harbour-view', name: 'Harbour View', timezone: 'Europe/Lisbon', currency: 'EUR' }],
  },
);
export const HotelList = Type.Object({ data: Type.Array(OperatorHotel) }, { title: 'OperatorHotelList' });
