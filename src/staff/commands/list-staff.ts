import type { Principal } from '../../operator-access/scopes.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { type StaffContext, staffView } from './staff-context.ts';

/** The accounts the caller sees (their hotels all within the caller's), oldest first. */
export async function listStaff(ctx: StaffContext, by: Principal) {
  return (await accounts.list(ctx.db, by.hotelIds)).map(staffView);
}
