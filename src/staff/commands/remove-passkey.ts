import { AppError } from '../../infra/http/problems.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffPasskeysRepository as passkeys } from '../staff-passkeys.repository.ts';
import type { StaffWriteContext } from './staff-context.ts';

/** Removes one of the signed-in person's passkeys (API.md 12); another's or an unknown id is `404`. */
export async function removePasskey(
  ctx: StaffWriteContext,
  staffId: number,
  passkeyId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const account = await accounts.byId(tx, staffId);
    if (!account) throw new Error('signed-in account not found');
    if (!(await passkeys.remove(tx, staffId, passkeyId)))
      throw new AppError('not_found', `You have no passkey with the id "${passkeyId}".`);
    await recordAudit(tx, ctx.audit, {
      actor: { type: 'staff', id: account.publicId, name: account.name },
      hotelIds: account.hotelIds,
      action: 'staff.passkey_removed',
      target: { type: 'staff', id: account.publicId },
      details: { passkeyId: passkeyId },
    });
  });
}
