import { hashSecret, normalizeConfirmationCode, sameHash } from '../infra/crypto/tokens.ts';
import { AppError } from '../infra/http/problems.ts';
import type { ReservationRow } from './reservation.repository.ts';

/** Only the hash is stored, so the comparison is of hashes, in constant time. */
export function assertTokenGrants(row: ReservationRow, token: string): void {
  if (!sameHash(row.accessTokenHash, hashSecret(token))) {
    throw new AppError('forbidden', 'This access token does not grant access to this reservation.');
  }
}

export function reservationCodeOrNotFound(raw: string): string {
  const code = normalizeConfirmationCode(raw);
  if (!code) throw notFound();
  return code;
}

export const notFound = () => new AppError('not_found', 'No such reservation.');

/** `If-Match` (optional): a stale version is refused before anything changes. */
export function assertVersion(row: ReservationRow, ifMatch: string | undefined): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags.includes('*') || tags.includes(`"${row.version}"`)) return;
  throw new AppError(
    'precondition_failed',
    `The reservation has changed (current version ${row.version}); fetch it again and retry.`,
    { headers: { etag: `"${row.version}"` } },
  );
}
