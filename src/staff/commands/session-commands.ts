import { sessionHash } from '../../operator-access/session-credential.ts';
import { staffSessionsRepository as sessions } from '../../operator-access/staff-sessions.repository.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { type StaffContext, signedInView } from './staff-context.ts';

/** Ends the session of this cookie secret (no error if it had ended already). */
export async function signOut(ctx: StaffContext, secret: string): Promise<void> {
  await sessions.end(ctx.db, sessionHash(secret));
}

/** The signed-in person, their scopes and hotels (`GET /auth/me`). */
export async function readMe(ctx: StaffContext, staffId: number) {
  const account = await accounts.byId(ctx.db, staffId);
  if (!account) throw new Error('signed-in account not found');
  return {
    ...signedInView(account),
    passkeys: [] as Array<{ id: string; name: string; createdAt: string; lastUsedAt: string | null }>,
  };
}
