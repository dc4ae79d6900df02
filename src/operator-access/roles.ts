import { type Grant, SCOPES, type Scope } from './scopes.ts';

/** Staff roles (API.md 12), most powerful first. */
export const ROLES = ['owner', 'manager', 'front_desk', 'accountant'] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do: a signed-in person is authorised by exactly these scopes, as a key by its own. */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  owner: SCOPES,
  manager: SCOPES.filter((s) => s !== 'keys:write'),
  front_desk: [
    'reservations:read',
    'reservations:write',
    'guests:identity',
    'inventory:read',
    'folios:read',
    'folios:write',
  ],
  accountant: ['reservations:read', 'folios:read', 'folios:write', 'audit:read'],
};

export function scopesOfRole(role: Role): Scope[] {
  return [...ROLE_SCOPES[role]];
}

/**
 * Whether a caller with `grant` (a key or a person) may give `role`: never a scope it lacks, and
 * `owner` only by an owner or a key that holds `keys:write` with `staff:write` (a manager's
 * `staff:write` never grants `owner`).
 */
export function mayGrantRole(grant: Grant & { role?: string }, role: Role): boolean {
  if (!ROLE_SCOPES[role].every((s) => grant.scopes.includes(s))) return false;
  if (role === 'owner') return grant.role === undefined || grant.role === 'owner';
  return true;
}
