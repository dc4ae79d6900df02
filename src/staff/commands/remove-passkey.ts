import { AppError } from '../../infra/http/problems.ts';
import { auditRepository } from '../../operator-access/audit.repository.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffPasskeysRepository as passkeys } from '../staff-passkeys.repository.ts';
import type { StaffContext } from './staff-context.ts';

/** Removes one of the signed-in person's passkeys (API.md 12); another's or an unknown id is `404`. */
export async function removePasskey(ctx: StaffContext, staffId: number, passkeyId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const account = await accounts.byId(tx, staffId);
    if (!account) throw new Error('signed-in account not found');
    if (!(await passkeys.remove(tx, staffId, passkeyId)))
      throw new AppError('not_found', `You have no passkey with the id "${passkeyId}".`);
    await auditRepository.append(tx, {
      actor: account.publicId,
      action: 'staff.passkey_removed',
      hotelIds: account.hotelIds,
      details: { staffId: account.publicId, passkeyId },
    });
  });
}
