import { type FeedRow, icalFeedsRepository as repo } from '../ical-feeds.repository.ts';
import type { IcalContext } from './ical-context.ts';

/** The hotel's feeds, oldest first (their tokens are not kept: no URL to show). */
export function listFeeds(ctx: Pick<IcalContext, 'db'>, hotelId: string): Promise<FeedRow[]> {
  return repo.feedsOf(ctx.db, hotelId);
}
