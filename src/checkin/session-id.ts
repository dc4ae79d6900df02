import type { CatalogStore } from '../catalog/catalog-store.ts';
import { taggedToken } from '../catalog/hotel-tag.ts';

/** Check-in session ids (API.md 5): `cks_`, the hotel's tag, 160 random bits. */
const PREFIX = 'cks_';
const RANDOM_BYTES = 20;

export function newSessionId(hotelId: string): string {
  return taggedToken(PREFIX, hotelId, RANDOM_BYTES);
}

/** The hotels a session id can be of (null: an id made before tags, found by itself). */
export function sessionHotels(
  catalog: Pick<CatalogStore, 'hotelsTagged'>,
  id: string,
): readonly string[] | null {
  return catalog.hotelsTagged(id, PREFIX, RANDOM_BYTES);
}
