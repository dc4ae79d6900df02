import { tellStaff } from '../../messages/staff-outbox.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { issueLink, recordOwnAct, type StaffWriteContext } from './staff-context.ts';

/**
 * Asks for a reset link (API.md 12): always the same answer; only an active account gets the
 * `staff_password_reset` e-mail, with a one-time link valid one hour, and the account's trail the
 * entry `staff.password_reset_requested` (the caller is told neither).
 */
export async function requestPasswordReset(ctx: StaffWriteContext, email: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const account = await accounts.byEmail(tx, email);
    if (!account || account.status !== 'active') return;
    const link = await issueLink(tx, ctx, account.id, 'password_reset');
    await tellStaff(tx, ctx.encryptor, {
      kind: 'staff_password_reset',
      to: account.email,
      name: account.name,
      language: account.language,
      link,
    });
    // Whoever typed the e-mail is unknown: the entry names the account it concerns as the actor.
    await recordOwnAct(tx, ctx.audit, account, 'staff.password_reset_requested');
  });
}
