import { AppError, invalid } from '../../infra/http/problems.ts';
import { actorOf, recordAudit } from '../../operator-access/audit-trail.ts';
import type { Role } from '../../operator-access/roles.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { staffSessionsRepository } from '../../operator-access/staff-sessions.repository.ts';
import { grantRefusal, seesAccount } from '../rules/staff-grant.ts';
import { staffAccountsRepository as accounts, type StaffAccount } from '../staff-accounts.repository.ts';
import { staffHotelsRepository } from '../staff-hotels.repository.ts';
import { knownHotels } from './invite-staff.ts';
import { staffNotFound } from './staff-access.ts';
import { type StaffWriteContext, staffView } from './staff-context.ts';

export interface StaffChange {
  name?: string | undefined;
  role?: Role | undefined;
  hotelIds?: string[] | null | undefined;
  status?: 'active' | 'disabled' | undefined;
}

/**
 * Changes an account (API.md 12) in one transaction with its audit entry. The caller may change
 * only an account whose role and hotels it could give, and give no role or hotel beyond its own;
 * a person cannot change their own role, hotels or status. Disabling ends every session of theirs
 * at once (the row is gone, so every process refuses the cookie on its next request). An invited
 * account cannot be made `active` here: only accepting the invitation does that.
 */
export async function modifyStaff(ctx: StaffWriteContext, by: Principal, id: string, change: StaffChange) {
  const hotelIds =
    change.hotelIds === undefined ? undefined : knownHotels(ctx, change.hotelIds ?? undefined, '/hotelIds');
  return ctx.db.transaction(async (tx) => {
    const before = await accounts.byPublicId(tx, id, { forUpdate: true });
    if (!before || !seesAccount(by, before)) throw staffNotFound(id);
    const own = grantRefusal(by, before.role, before.hotelIds);
    if (own) throw new AppError('forbidden', `You may not change this account: ${own}`);
    const role = change.role ?? before.role;
    const hotels = hotelIds === undefined ? before.hotelIds : hotelIds;
    const refusal = grantRefusal(by, role, hotels);
    if (refusal) throw new AppError('forbidden', refusal);
    const self = before.publicId === by.id;
    if (self && (change.role !== undefined || hotelIds !== undefined || change.status !== undefined)) {
      throw new AppError('forbidden', 'You may not change your own role, hotels or status.');
    }
    if (change.status === 'active' && before.status === 'invited') {
      throw invalid('/status', 'an invited account becomes active by accepting its invitation');
    }
    const status =
      change.status === 'active' && before.status === 'disabled' && !before.passwordHash
        ? 'invited'
        : change.status;
    await accounts.update(
      tx,
      before.id,
      {
        name: change.name,
        role: change.role,
        everyHotel: hotelIds === undefined ? undefined : hotelIds === null,
        status,
      },
      ctx.clock.now(),
    );
    if (hotelIds !== undefined) await staffHotelsRepository.replace(tx, before.id, hotelIds);
    if (change.status === 'disabled') await staffSessionsRepository.endAllOf(tx, before.id);
    const after = (await accounts.byId(tx, before.id)) as StaffAccount;
    await recordAudit(tx, ctx.audit, {
      actor: actorOf(by),
      hotelIds: unionOfHotels(before.hotelIds, after.hotelIds),
      action: 'staff.modified',
      target: { type: 'staff', id: after.publicId },
      changes: {
        name: [before.name, after.name],
        role: [before.role, after.role],
        status: [before.status, after.status],
        hotelIds: [before.hotelIds, after.hotelIds],
      },
    });
    return staffView(after);
  });
}

/** The hotels an account change concerns: those it had and those it has (null: every hotel). */
function unionOfHotels(before: string[] | null, after: string[] | null): string[] | null {
  return before === null || after === null ? null : [...new Set([...before, ...after])];
}
