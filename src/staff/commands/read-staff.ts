import type { Principal } from '../../operator-access/scopes.ts';
import { seesAccount } from '../rules/staff-grant.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffNotFound } from './staff-access.ts';
import { type StaffContext, staffView } from './staff-context.ts';

/** One account; one outside the caller's hotels is `404`, as if it did not exist. */
export async function readStaff(ctx: StaffContext, by: Principal, id: string) {
  const account = await accounts.byPublicId(ctx.db, id);
  if (!account || !seesAccount(by, account)) throw staffNotFound(id);
  return staffView(account);
}
