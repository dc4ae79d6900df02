import type { CatalogStore } from '../catalog/catalog-store.ts';
import { taggedToken } from '../catalog/hotel-tag.ts';

/** Quote ids (API.md 2.2): `q_`, the hotel's tag, 128 random bits. */
const PREFIX = 'q_';
const RANDOM_BYTES = 16;

export function newQuoteId(hotelId: string): string {
  return taggedToken(PREFIX, hotelId, RANDOM_BYTES);
}

/** The hotels a quote id can be of (null: an id made before tags, found by itself). */
export function quoteHotels(
  catalog: Pick<CatalogStore, 'hotelsTagged'>,
  id: string,
): readonly string[] | null {
  return catalog.hotelsTagged(id, PREFIX, RANDOM_BYTES);
}
