/** Catalogue documents for the catalogue's unit tests. */
// biome-ignore lint/suspicious/noExplicitAny: tests edit the document freely, into shapes no type allows.
export type Json = any;

/** A minimal valid catalogue as plain JSON, fresh for every test. */
export function catalogue(): Json {
  return {
    hotels: [
      {
        id: 'harbour-view',
        name: 'Harbour View',
        timezone: 'Europe/Lisbon',
        currency: 'EUR',
        roomTypes: [
          { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
          { id: 'suite', name: 'Suite', count: 2, maxAdults: 2, maxChildren: 2, maxOccupancy: 4 },
        ],
        ratePlans: [
          {
            id: 'flex',
            name: 'Flexible',
            refundable: true,
            prepayment: 'none',
            prices: { double: { base: 12000 }, suite: { base: 26000, child: 2500 } },
          },
        ],
      },
    ],
  };
}
