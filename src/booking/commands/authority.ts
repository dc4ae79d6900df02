import { hashSecret, sameHash } from '../../infra/crypto/tokens.ts';
import { AppError } from '../../infra/http/problems.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { reservationNotFound } from '../../reservations/reservation-code.ts';
import type { Authority } from './command-context.ts';

export const notFound = reservationNotFound;

/**
 * The guest's token must be this reservation's (only its hash is stored, so hashes are compared,
 * in constant time): `403` otherwise. A reservation outside an operator key's hotels is `404`, as
 * if it did not exist (API.md 7.2).
 */
export function assertAuthority(row: ReservationRow, authority: Authority): void {
  if (authority.kind === 'guest') {
    if (!sameHash(row.accessTokenHash, hashSecret(authority.accessToken))) {
      throw new AppError('forbidden', 'This access token does not grant access to this reservation.');
    }
  } else if (authority.hotelIds !== null && !authority.hotelIds.includes(row.hotelId)) {
    throw notFound();
  }
}

/** `If-Match` (optional): a stale version is refused before anything changes. */
export function assertVersion(row: ReservationRow, ifMatch: string | undefined): void {
  if (ifMatch === undefined) return;
  // RFC 9110 13.1.1: If-Match uses the strong comparison, so a weak tag (W/"2") never matches.
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(`"${row.version}"`)) return;
  throw new AppError(
    'precondition_failed',
    `The reservation has changed (current version ${row.version}); fetch it again and retry.`,
    { headers: { etag: `"${row.version}"` } },
  );
}
