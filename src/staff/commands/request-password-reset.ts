import { tellStaff } from '../../messages/staff-outbox.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { issueLink, type StaffContext } from './staff-context.ts';

/**
 * Asks for a reset link (API.md 12): always the same answer; only an active account gets the
 * `staff_password_reset` e-mail, with a one-time link valid one hour.
 */
export async function requestPasswordReset(ctx: StaffContext, email: string): Promise<void> {
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
  });
}
