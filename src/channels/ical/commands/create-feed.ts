import type { Hotel } from '../../../catalog/catalog.schema.ts';
import { hashSecret, randomToken } from '../../../infra/crypto/tokens.ts';
import { recordAudit } from '../../../operator-access/audit-trail.ts';
import { icalFeedsRepository as repo } from '../ical-feeds.repository.ts';
import { type IcalContext, roomTypeOrInvalid } from './ical-context.ts';

/** A new secret feed URL for a room type: the token (160 random bits) is answered once, its hash kept. */
export async function createFeed(
  ctx: Pick<IcalContext, 'db' | 'config' | 'audit'>,
  hotel: Hotel,
  roomTypeId: string,
) {
  roomTypeOrInvalid(hotel, roomTypeId);
  const token = randomToken('ict_', 20);
  const row = await ctx.db.transaction(async (tx) => {
    const feed = await repo.insertFeed(tx, {
      id: randomToken('icf_', 10),
      hotelId: hotel.id,
      roomTypeId,
      tokenHash: hashSecret(token),
    });
    await recordAudit(tx, ctx.audit, {
      hotelIds: [hotel.id],
      action: 'ical_feed.created',
      target: { type: 'ical_feed', id: feed.id },
      details: { roomTypeId },
    });
    return feed;
  });
  return { feed: row, url: `${ctx.config.publicBaseUrl}/api/v1/ical/${token}.ics` };
}
