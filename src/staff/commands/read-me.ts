import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffPasskeysRepository as passkeys } from '../staff-passkeys.repository.ts';
import { passkeyView } from './passkey-view.ts';
import { type StaffContext, signedInView } from './staff-context.ts';

/** The signed-in person, their scopes, hotels and passkeys (`GET /auth/me`). */
export async function readMe(ctx: StaffContext, staffId: number) {
  const account = await accounts.byId(ctx.db, staffId);
  if (!account) throw new Error('signed-in account not found');
  const held = await passkeys.ofStaff(ctx.db, staffId);
  return { ...signedInView(account), passkeys: held.map(passkeyView) };
}
