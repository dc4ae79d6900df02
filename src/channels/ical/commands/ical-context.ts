import type { Hotel } from '../../../catalog/catalog.schema.ts';
import type { AppContext } from '../../../context.ts';
import { AppError, invalid } from '../../../infra/http/problems.ts';
import type { Audited } from '../../../operator-access/audit-trail.ts';

/**
 * The app's parts the iCal commands use and who acts: a route hands `requestContext(ctx, request)`,
 * the poller its own, in the system's audit scope.
 */
export type IcalContext = Pick<
  AppContext,
  'db' | 'catalog' | 'clock' | 'config' | 'encryptor' | 'operatorKeyHasher'
> &
  Audited;

/** The host our own events' UIDs name (ical-export.ts): PUBLIC_BASE_URL's. */
export const uidHost = (ctx: Pick<IcalContext, 'config'>) => new URL(ctx.config.publicBaseUrl).host;

/** `400` unless the hotel has the room type. */
export function roomTypeOrInvalid(hotel: Hotel, roomTypeId: string): void {
  if (!hotel.roomTypes.some((r) => r.id === roomTypeId)) {
    throw invalid('/roomTypeId', `no room type "${roomTypeId}" in ${hotel.id}`);
  }
}

/** The row, when the key sees its hotel; `404` otherwise, as if it did not exist. */
export function visible<T extends { hotelId: string }>(
  row: T | null,
  hotelIds: readonly string[] | null,
  what: string,
): T {
  if (!row || (hotelIds !== null && !hotelIds.includes(row.hotelId))) {
    throw new AppError('not_found', `No ${what} has this id.`);
  }
  return row;
}
