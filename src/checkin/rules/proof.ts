import { hashSecret, sameHash } from '../../infra/crypto/tokens.ts';

/**
 * A name as a guest might type it: accents, case and surrounding or repeated spaces do not matter
 * ("  JOÃO  da Silva" and "joao da silva" are the same name).
 */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** The guest's own proof of a reservation: the booker's last name, compared case- and accent-insensitively. */
export function sameLastName(given: string, booked: string): boolean {
  const a = foldName(given);
  // Compared as hashes in constant time, so response timing says nothing about how close a guess was.
  return a.length > 0 && sameHash(hashSecret(a), hashSecret(foldName(booked)));
}
