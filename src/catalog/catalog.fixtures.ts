/** Catalogue documents for the catalogue's unit tests, and how they are refused. */
import assert from 'node:assert/strict';
import { CatalogError, parseCatalog } from './catalog.validate.ts';

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

/** The problems `parseCatalog` refuses `json` with, each of them also in the error's message. */
export function problemsOf(json: unknown): string[] {
  try {
    parseCatalog(json);
  } catch (error) {
    assert.ok(error instanceof CatalogError);
    for (const problem of error.problems) assert.ok(error.message.includes(problem), problem);
    return error.problems;
  }
  assert.fail('expected a CatalogError');
}
