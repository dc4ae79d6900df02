import { hashSecret } from '../../../infra/crypto/tokens.ts';
import { type FeedDocument, feedDocument } from '../ical-export.ts';
import { icalFeedsRepository as repo } from '../ical-feeds.repository.ts';
import { type IcalContext, uidHost } from './ical-context.ts';

/**
 * Feed tokens are `ict_` and 32 base32 characters: the prefix lets the logs mask them as they mask
 * every other secret (infra/logger.ts). Feeds made before the prefix keep their bare token, which
 * still answers: its URL lives in the platforms' settings.
 */
const FEED_TOKEN = /^(?:ict_)?[0-9a-z]{16,64}$/;

/** `GET /ical/{token}.ics`: the feed's calendar and its tag, or null (unknown or deleted token, hotel gone). */
export async function readFeed(
  ctx: Pick<IcalContext, 'db' | 'catalog' | 'clock' | 'config'>,
  token: string,
): Promise<FeedDocument | null> {
  if (!FEED_TOKEN.test(token)) return null;
  const feed = await repo.feedByTokenHash(ctx.db, hashSecret(token));
  const hotel = feed ? ctx.catalog.get(feed.hotelId) : undefined;
  if (!feed || !hotel) return null;
  return feedDocument(ctx.db, hotel, feed, ctx.clock.now(), uidHost(ctx));
}
