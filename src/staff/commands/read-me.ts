import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { type StaffContext, signedInView } from './staff-context.ts';

/** The signed-in person, their scopes and hotels (`GET /auth/me`). */
export async function readMe(ctx: StaffContext, staffId: number) {
  const account = await accounts.byId(ctx.db, staffId);
  if (!account) throw new Error('signed-in account not found');
  return {
    ...signedInView(account),
    passkeys: [] as Array<{ id: string; name: string; createdAt: string; lastUsedAt: string | null }>,
  };
}
