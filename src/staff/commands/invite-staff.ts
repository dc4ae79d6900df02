import { randomToken } from '../../infra/crypto/tokens.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import type { Language } from '../../messages/message-kinds.ts';
import { tellStaff } from '../../messages/staff-outbox.ts';
import { actorOf, recordAudit } from '../../operator-access/audit-trail.ts';
import type { Role } from '../../operator-access/roles.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { grantRefusal } from '../rules/staff-grant.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffHotelsRepository } from '../staff-hotels.repository.ts';
import { issueLink, type StaffContext, type StaffWriteContext, staffView } from './staff-context.ts';

export interface Invitation {
  email: string;
  name: string;
  role: Role;
  hotelIds?: string[] | undefined;
  language?: Language | undefined;
}

/** Hotel ids of a request: each must be in the catalogue (`400`), duplicates dropped. */
export function knownHotels(
  ctx: StaffContext,
  hotelIds: string[] | undefined,
  path: string,
): string[] | null {
  if (hotelIds === undefined) return null;
  hotelIds.forEach((id, i) => {
    if (!ctx.catalog.get(id)) throw invalid(`${path}/${i}`, `is not a hotel of the catalogue: "${id}"`);
  });
  return [...new Set(hotelIds)].sort();
}

/**
 * Invites a person (API.md 12): the account `invited`, its hotels, a one-time link (72 h) and the
 * `staff_invitation` e-mail, in one transaction with its audit entry. Nobody grants a role or hotel
 * beyond their own (`403`). Answers the account and the link (which only the command line prints).
 */
export async function inviteStaff(ctx: StaffWriteContext, by: Principal, invitation: Invitation) {
  const hotelIds = knownHotels(ctx, invitation.hotelIds, '/hotelIds');
  const refusal = grantRefusal(by, invitation.role, hotelIds);
  if (refusal) throw new AppError('forbidden', refusal);
  return ctx.db.transaction(async (tx) => {
    const publicId = randomToken('usr_', 12);
    const id = await accounts.insert(tx, {
      publicId,
      email: invitation.email,
      name: invitation.name,
      role: invitation.role,
      everyHotel: hotelIds === null,
      language: invitation.language ?? 'en',
      createdBy: by.id,
    });
    if (id === null) throw invalid('/email', 'already has an account');
    await staffHotelsRepository.replace(tx, id, hotelIds);
    const link = await issueLink(tx, ctx, id, 'invitation');
    await tellStaff(tx, ctx.encryptor, {
      kind: 'staff_invitation',
      to: invitation.email,
      name: invitation.name,
      language: invitation.language ?? 'en',
      link,
      invitedBy: by.name ?? 'Innkeep',
    });
    await recordAudit(tx, ctx.audit, {
      actor: actorOf(by),
      hotelIds,
      action: 'staff.invited',
      target: { type: 'staff', id: publicId },
      details: { role: invitation.role, hotelIds },
    });
    const account = await accounts.byId(tx, id);
    if (!account) throw new Error('invited account not found');
    return { account: staffView(account), link };
  });
}
