import { hotelToday } from '../../../dates/dates.ts';
import { replaceHolds } from '../../../hotel-calendar/external-holds.ts';
import { recordAudit } from '../../../operator-access/audit-trail.ts';
import { icalImportsRepository as repo } from '../ical-imports.repository.ts';
import { type IcalContext, visible } from './ical-context.ts';

/** Releases every hold of the import, then deletes it (`404` for an import the key does not see). */
export async function deleteImport(
  ctx: Pick<IcalContext, 'db' | 'catalog' | 'clock' | 'audit'>,
  id: string,
  hotelIds: readonly string[] | null,
): Promise<void> {
  const row = visible(await repo.importById(ctx.db, id), hotelIds, 'iCal import');
  const hotel = ctx.catalog.get(row.hotelId);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.importById(tx, id, row.hotelId))) return;
    if (hotel) {
      const today = hotelToday(hotel.timezone, ctx.clock.now());
      await replaceHolds(tx, { hotelId: row.hotelId, roomTypeId: row.roomTypeId, importId: id }, [], today);
    }
    await repo.deleteImport(tx, id);
    await recordAudit(tx, ctx.audit, {
      hotelIds: [row.hotelId],
      action: 'ical_import.deleted',
      target: { type: 'ical_import', id },
      details: { roomTypeId: row.roomTypeId },
    });
  });
}
