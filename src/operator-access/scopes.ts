/** Operator key scopes (API.md 7.1): what each key may do. */
export const SCOPES = [
  'reservations:read',
  'reservations:write',
  'guests:identity',
  'inventory:read',
  'inventory:write',
  'webhooks:write',
  'keys:write',
  'staff:write',
  'audit:read',
  'folios:read',
  'folios:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** What a key may do and where: `hotelIds` null means every hotel. */
export interface Grant {
  scopes: readonly Scope[];
  hotelIds: readonly string[] | null;
}

/** Who acts: a verified key (its public id), a signed-in person (`usr_…`), or the command line / first start with every right. */
export interface Principal extends Grant {
  id: string;
  /** How it was authenticated; absent: an operator key (or the command line). */
  kind?: 'key' | 'staff';
  /** A person's name or a key's, for the audit trail. */
  name?: string;
  /** A person's role (API.md 12). */
  role?: string;
}

export function hasScope(grant: Grant, scope: Scope): boolean {
  return grant.scopes.includes(scope);
}

/** Whether the key may see this hotel at all. */
export function seesHotel(grant: Grant, hotelId: string): boolean {
  return grant.hotelIds === null || grant.hotelIds.includes(hotelId);
}

/** Hotels of `inner` (null = every hotel) all lie within those of `outer`. */
export function hotelsWithin(inner: readonly string[] | null, outer: readonly string[] | null): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  return inner.every((h) => outer.includes(h));
}

/** Never grant more: `inner` holds no scope and no hotel that `outer` lacks. */
export function grantWithin(inner: Grant, outer: Grant): boolean {
  return inner.scopes.every((s) => outer.scopes.includes(s)) && hotelsWithin(inner.hotelIds, outer.hotelIds);
}
