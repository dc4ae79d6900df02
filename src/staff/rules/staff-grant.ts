import { mayGrantRole, type Role } from '../../operator-access/roles.ts';
import { type Grant, hotelsWithin } from '../../operator-access/scopes.ts';

/** Why a caller may not give `role` at `hotelIds` (null = every hotel), or null when it may. */
export function grantRefusal(
  caller: Grant & { role?: string | undefined },
  role: Role,
  hotelIds: readonly string[] | null,
): string | null {
  if (!mayGrantRole(caller, role)) return `You may not give the role \`${role}\`: it is beyond your own.`;
  if (!hotelsWithin(hotelIds, caller.hotelIds)) return 'You may not give hotels beyond your own.';
  return null;
}

/** Whether the caller may see (and so manage) an account: its hotels all lie within the caller's. */
export function seesAccount(caller: Grant, account: { hotelIds: readonly string[] | null }): boolean {
  return hotelsWithin(account.hotelIds, caller.hotelIds);
}
