import { sessionHash } from '../../operator-access/session-credential.ts';
import { staffSessionsRepository as sessions } from '../../operator-access/staff-sessions.repository.ts';
import type { StaffContext } from './staff-context.ts';

/** Ends the session of this cookie secret (no error if it had ended already). */
export async function signOut(ctx: StaffContext, secret: string): Promise<void> {
  await sessions.end(ctx.db, sessionHash(secret));
}
