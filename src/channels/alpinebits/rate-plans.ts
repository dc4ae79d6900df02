import { minorDigits } from '../../infra/currency.ts';
import type { Database } from '../../infra/db/database.ts';
import { type Audited, recordAudit } from '../../operator-access/audit-trail.ts';
import { applyRatePlanChanges, RatePlanChangeError } from '../../rate-plans/apply-rate-plans.ts';
import { parseRatePlanNotif, RatePlanNotifError } from '../../rate-plans/rate-plan-notif.parse.ts';
import { type ActionResult, ERROR_CODES, errorOutcome, successOutcome } from './responses.ts';

/**
 * `OTA_HotelRatePlanNotif:RatePlans` (docs/api.md §9.3) for the AlpineBits endpoint's action registry:
 * `{ ...RATE_PLAN_NOTIF_ACTION, handle: handleRatePlanNotif }`, answered with the one XML writer of
 * the other actions (`responses.ts`). `rate-plans/` owns the message's parser and its storage; its
 * context and authority are typed by what it uses, so tests can hand it a database and a catalogue.
 */
export const RATE_PLAN_NOTIF_ACTION = {
  action: 'OTA_HotelRatePlanNotif:RatePlans',
  handshakeName: 'action_OTA_HotelRatePlanNotif_RatePlans',
  capabilities: [
    'OTA_HotelRatePlanNotif_accept_ArrivalDOW',
    'OTA_HotelRatePlanNotif_accept_DepartureDOW',
    'OTA_HotelRatePlanNotif_accept_RatePlan_BookingRule',
    'OTA_HotelRatePlanNotif_accept_RatePlan_RoomType_BookingRule',
    'OTA_HotelRatePlanNotif_accept_Supplements',
    'OTA_HotelRatePlanNotif_accept_FreeNightsOffers',
    'OTA_HotelRatePlanNotif_accept_FamilyOffers',
    'OTA_HotelRatePlanNotif_accept_overlay',
    'OTA_HotelRatePlanNotif_accept_OfferRule_BookingOffset',
    'OTA_HotelRatePlanNotif_accept_OfferRule_DOWLOS',
    'OTA_HotelRatePlanNotif_accept_RatePlanJoin',
  ],
  scope: 'inventory:write',
} as const;

export type RatePlanNotifContext = Audited & {
  db: Database;
  catalog: {
    get(hotelId: string): { currency: string; roomTypes: ReadonlyArray<{ id: string }> } | undefined;
  };
};
export type RatePlanNotifInput = {
  xml: string;
  clientId: string;
  auth: { hotelIds: readonly string[] | null };
};

const ROOT = 'OTA_HotelRatePlanNotifRS';
/** Plan codes named in an audit entry, per kind of change (a complete set may hold hundreds). */
const AUDITED_CODES = 50;
/** The message's OTA version, as sent in the standard's samples. */
const VERSION = '7.000';

function error(code: number, text: string): ActionResult {
  return errorOutcome(ROOT, [{ code, text }], VERSION);
}

/**
 * Parses the message, checks the hotel (one of the key's) and its currency, and applies every
 * RatePlan in one transaction: all or nothing. Errors answer the standard's `Errors` with HTTP 200.
 */
export async function handleRatePlanNotif(
  ctx: RatePlanNotifContext,
  input: RatePlanNotifInput,
): Promise<ActionResult> {
  let notif: ReturnType<typeof parseRatePlanNotif>;
  try {
    notif = parseRatePlanNotif(input.xml, minorDigits);
  } catch (e) {
    if (e instanceof RatePlanNotifError) return error(ERROR_CODES.unableToProcess, e.message);
    throw e;
  }
  const hotel = ctx.catalog.get(notif.hotelCode);
  const allowed = input.auth.hotelIds === null || input.auth.hotelIds.includes(notif.hotelCode);
  if (!hotel || !allowed) return error(ERROR_CODES.invalidHotel, `Unknown hotel ${notif.hotelCode}.`);
  const foreign = input.xml
    .match(/CurrencyCode="([A-Z]{3})"/g)
    ?.find((c) => !c.includes(`"${hotel.currency}"`));
  if (foreign)
    return error(
      ERROR_CODES.unableToProcess,
      `The hotel's prices are in ${hotel.currency}: ${foreign} cannot be stored.`,
    );
  try {
    await ctx.db.transaction(async (tx) => {
      await applyRatePlanChanges(
        tx,
        notif.hotelCode,
        new Set(hotel.roomTypes.map((r) => r.id)),
        notif.completeSet,
        notif.changes,
      );
      // The channel's change of the hotel's prices (API.md 12), in the same transaction: its actor
      // is the key's channel (the request's audit scope); the plans named by what was done to them.
      const codes = (type: string) =>
        notif.changes
          .filter((c) => c.type === type)
          .map((c) => c.code)
          .slice(0, AUDITED_CODES);
      await recordAudit(tx, ctx.audit, {
        hotelIds: [notif.hotelCode],
        action: 'rate_plans.updated',
        target: { type: 'rate_plans', id: notif.hotelCode },
        details: {
          completeSet: notif.completeSet,
          ratePlans: notif.changes.length,
          new: codes('New'),
          overlaid: codes('Overlay'),
          removed: codes('Remove'),
        },
      });
    });
  } catch (e) {
    if (e instanceof RatePlanChangeError)
      return error(
        e.kind === 'unknown_room_type' ? ERROR_CODES.invalidRoomType : ERROR_CODES.unableToProcess,
        e.message,
      );
    throw e;
  }
  return successOutcome(ROOT, {}, VERSION);
}
