import type { Database } from '../../infra/db/database.ts';
import { type Audited, recordAudit } from '../../operator-access/audit-trail.ts';
import { webhookEndpointsRepository as repo } from '../webhook-endpoints.repository.ts';
import { type Actor, visibleEndpoint } from './webhook-access.ts';

/** Deletes the endpoint; deliveries not yet made are dropped with it (an attempt in flight finishes unrecorded). */
export async function deleteEndpoint(
  ctx: { db: Database } & Audited,
  actor: Actor,
  id: string,
): Promise<void> {
  const endpoint = await visibleEndpoint(ctx.db, actor, id);
  await ctx.db.transaction(async (tx) => {
    await repo.delete(tx, endpoint.rowId);
    await recordAudit(tx, ctx.audit, {
      hotelIds: endpoint.hotelIds,
      action: 'webhook.deleted',
      target: { type: 'webhook', id: endpoint.id },
    });
  });
}
