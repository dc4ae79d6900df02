import type { Hotel } from '../../../catalog/catalog.schema.ts';
import { randomToken } from '../../../infra/crypto/tokens.ts';
import { invalid } from '../../../infra/http/problems.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../../../infra/net/outbound-address.ts';
import { recordAudit } from '../../../operator-access/audit-trail.ts';
import { type ImportRow, icalImportsRepository as repo } from '../ical-imports.repository.ts';
import { type IcalContext, roomTypeOrInvalid } from './ical-context.ts';
import { sealUrl } from './import-url.ts';
import { syncImport } from './sync-import.ts';

/** Imports a room type may have (docs/api.md §9.1): each is fetched every ICAL_POLL_SECONDS. */
export const MAX_IMPORTS_PER_ROOM_TYPE = 10;

/** Creates an import (its URL checked as a webhook's is) and fetches it once at once. */
export async function createImport(
  ctx: IcalContext,
  hotel: Hotel,
  body: { roomTypeId: string; url: string; name: string },
): Promise<ImportRow> {
  roomTypeOrInvalid(hotel, body.roomTypeId);
  try {
    await resolveOutboundTarget(body.url, { allowPrivate: ctx.config.webhookAllowPrivate });
  } catch (error) {
    if (error instanceof OutboundAddressError) throw invalid('/url', error.message);
    throw error;
  }
  const id = randomToken('ici_', 10);
  const sealed = sealUrl(ctx, id, body.url);
  const row = await ctx.db.transaction(async (tx) => {
    await repo.lockRoomTypeImports(tx, hotel.id, body.roomTypeId);
    const existing = await repo.roomTypeImports(tx, hotel.id, body.roomTypeId, sealed.hash);
    if (existing.sameUrl) {
      throw invalid(
        '/url',
        `this URL is already imported for room type "${body.roomTypeId}" (${existing.sameUrl})`,
      );
    }
    if (existing.count >= MAX_IMPORTS_PER_ROOM_TYPE) {
      throw invalid(
        '/roomTypeId',
        `room type "${body.roomTypeId}" has ${existing.count} imports, the most it may have (delete one first)`,
      );
    }
    const made = await repo.insertImport(tx, {
      id,
      hotelId: hotel.id,
      roomTypeId: body.roomTypeId,
      name: body.name,
      ...sealed,
    });
    // The URL is a secret of the hotel's (sealed at rest): the entry names the import, not its URL.
    await recordAudit(tx, ctx.audit, {
      hotelIds: [hotel.id],
      action: 'ical_import.created',
      target: { type: 'ical_import', id },
      details: { roomTypeId: body.roomTypeId },
    });
    return made;
  });
  return syncImport(ctx, row);
}
