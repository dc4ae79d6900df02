import { AppError, invalid } from '../../infra/http/problems.ts';
import type { OperatorKey } from '../keys.repository.ts';
import { grantWithin, type Principal, type Scope } from '../scopes.ts';
import { insertKey, type KeysDeps } from './key-grant.ts';

export interface NewKeyRequest {
  name: string;
  scopes: Scope[];
  hotelIds?: string[] | null;
}

/**
 * Creates a key for `actor`. Never grant more: every scope and hotel of the new key must be the
 * actor's own, so a hotel-limited key cannot make a key for every hotel (`403 forbidden`).
 */
export async function createKey(
  deps: KeysDeps,
  actor: Principal,
  request: NewKeyRequest,
): Promise<{ key: OperatorKey; secret: string }> {
  const scopes = [...new Set(request.scopes)];
  const hotelIds = request.hotelIds == null ? null : [...new Set(request.hotelIds)];
  const unknown = (hotelIds ?? []).filter((h) => !deps.knownHotel(h));
  if (unknown.length > 0) {
    const [first, ...rest] = unknown.map((h) => ({
      path: `/hotelIds/${(hotelIds ?? []).indexOf(h)}`,
      message: `no hotel has the id "${h}"`,
    }));
    if (first) throw invalid(first.path, first.message, rest);
  }
  if (!grantWithin({ scopes, hotelIds }, actor)) {
    throw new AppError(
      'forbidden',
      hotelIds === null && actor.hotelIds !== null
        ? 'Your key is limited to some hotels: list the new key’s `hotelIds`, all among yours.'
        : 'A key can only grant scopes and hotels that your own key has.',
    );
  }
  return deps.db.transaction((tx) =>
    insertKey(tx, deps.hash, actor, { name: request.name, scopes, hotelIds }, deps.audit),
  );
}
