import { recordAudit } from '../../../operator-access/audit-trail.ts';
import { icalFeedsRepository as repo } from '../ical-feeds.repository.ts';
import { type IcalContext, visible } from './ical-context.ts';

/** Deletes a feed the key sees (`404` otherwise): its URL answers `404` from now on. */
export async function deleteFeed(
  ctx: Pick<IcalContext, 'db' | 'audit'>,
  id: string,
  hotelIds: readonly string[] | null,
): Promise<void> {
  const feed = visible(await repo.feedById(ctx.db, id), hotelIds, 'iCal feed');
  await ctx.db.transaction(async (tx) => {
    await repo.deleteFeed(tx, id);
    await recordAudit(tx, ctx.audit, {
      hotelIds: [feed.hotelId],
      action: 'ical_feed.deleted',
      target: { type: 'ical_feed', id },
      details: { roomTypeId: feed.roomTypeId },
    });
  });
}
