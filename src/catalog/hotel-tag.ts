import { createHash } from 'node:crypto';
import { base32, randomToken } from '../infra/crypto/tokens.ts';

/*
 * Identifiers that say which hotel they belong to (issue 37): a quote id or a check-in session id
 * carries a short tag of its hotel after its prefix (`q_<tag><random>`), so a request naming one is
 * answered from that hotel's rows alone; on Citus, from one shard, never by asking every shard.
 * The tag is opaque (a hash of the hotel's id, not the id) and adds nothing to guess: the random
 * part keeps all its bits. Identifiers made before tags keep working (they are one tag shorter).
 */

/** Crockford base32 characters of a tag: 30 bits, so two hotels of one deployment rarely share one. */
const TAG_LENGTH = 6;
const tags = new Map<string, string>();

/** The tag of a hotel: the same in every process and every release. */
export function hotelTag(hotelId: string): string {
  let tag = tags.get(hotelId);
  if (tag === undefined) {
    tag = base32(createHash('sha256').update(`innkeep/hotel-tag\u0000${hotelId}`).digest()).slice(
      0,
      TAG_LENGTH,
    );
    tags.set(hotelId, tag);
  }
  return tag;
}

/** `prefix` + the hotel's tag + `bytes` random bytes in base32. */
export function taggedToken(prefix: string, hotelId: string, bytes: number): string {
  return randomToken(prefix + hotelTag(hotelId), bytes);
}

/**
 * The tag an identifier made by `taggedToken(prefix, …, bytes)` carries; null for an identifier
 * without one (made before tags: its rows are found by the identifier alone); false for anything
 * else, which names nothing.
 */
export function tagOfId(id: string, prefix: string, bytes: number): string | null | false {
  const untagged = prefix.length + Math.ceil((bytes * 8) / 5);
  if (!id.startsWith(prefix)) return false;
  if (id.length === untagged) return null;
  if (id.length !== untagged + TAG_LENGTH) return false;
  return id.slice(prefix.length, prefix.length + TAG_LENGTH);
}
