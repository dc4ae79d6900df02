import { normalizeConfirmationCode } from '../infra/crypto/tokens.ts';
import { AppError } from '../infra/http/problems.ts';

/** A reservation the caller may not know of, or none at all: the same `404` either way. */
export const reservationNotFound = () => new AppError('not_found', 'No such reservation.');

/** The confirmation code of a path, normalised; one no reservation can have is `404` at once. */
export function reservationCodeOrNotFound(raw: string): string {
  const code = normalizeConfirmationCode(raw);
  if (!code) throw reservationNotFound();
  return code;
}
