import { icalFeedsRepository as repo } from '../ical-feeds.repository.ts';
import { type IcalContext, visible } from './ical-context.ts';

/** Deletes a feed the key sees (`404` otherwise): its URL answers `404` from now on. */
export async function deleteFeed(
  ctx: Pick<IcalContext, 'db'>,
  id: string,
  hotelIds: readonly string[] | null,
): Promise<void> {
  visible(await repo.feedById(ctx.db, id), hotelIds, 'iCal feed');
  await ctx.db.transaction((tx) => repo.deleteFeed(tx, id));
}
