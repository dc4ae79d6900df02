import { XMLBuilder } from 'fast-xml-parser';
import { minorDigits } from '../infra/currency.ts';
import type { Database } from '../infra/db/database.ts';
import { applyRatePlanChanges, RatePlanChangeError } from './apply-rate-plans.ts';
import { parseRatePlanNotif, RatePlanNotifError } from './rate-plan-notif.parse.ts';

/**
 * `OTA_HotelRatePlanNotif:RatePlans` (docs/api.md §9.3) for the AlpineBits endpoint's action registry:
 * `{ ...RATE_PLAN_NOTIF_ACTION, handle: handleRatePlanNotif }`. Its context and authority are
 * typed by what it uses, so this module needs nothing above `infra/`.
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

export type RatePlanNotifContext = {
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
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
});

function answer(content: Record<string, unknown>): { status: number; xml: string } {
  const body = builder.build({
    [ROOT]: { '@_xmlns': 'http://www.opentravel.org/OTA/2003/05', '@_Version': '7.000', ...content },
  });
  return { status: 200, xml: `<?xml version="1.0" encoding="UTF-8"?>\n${body}` };
}

/** OTA error codes (code list ERR): 392 invalid hotel, 402 invalid room type, 450 unable to process. */
function error(code: 392 | 402 | 450, text: string) {
  return answer({ Errors: { Error: [{ '@_Type': '13', '@_Code': String(code), '#text': text }] } });
}

/**
 * Parses the message, checks the hotel (one of the key's) and its currency, and applies every
 * RatePlan in one transaction: all or nothing. Errors answer the standard's `Errors` with HTTP 200.
 */
export async function handleRatePlanNotif(
  ctx: RatePlanNotifContext,
  input: RatePlanNotifInput,
): Promise<{ status: number; xml: string }> {
  let notif: ReturnType<typeof parseRatePlanNotif>;
  try {
    notif = parseRatePlanNotif(input.xml, minorDigits);
  } catch (e) {
    if (e instanceof RatePlanNotifError) return error(450, e.message);
    throw e;
  }
  const hotel = ctx.catalog.get(notif.hotelCode);
  const allowed = input.auth.hotelIds === null || input.auth.hotelIds.includes(notif.hotelCode);
  if (!hotel || !allowed) return error(392, `Unknown hotel ${notif.hotelCode}.`);
  const foreign = input.xml
    .match(/CurrencyCode="([A-Z]{3})"/g)
    ?.find((c) => !c.includes(`"${hotel.currency}"`));
  if (foreign) return error(450, `The hotel's prices are in ${hotel.currency}: ${foreign} cannot be stored.`);
  try {
    await ctx.db.transaction((tx) =>
      applyRatePlanChanges(
        tx,
        notif.hotelCode,
        new Set(hotel.roomTypes.map((r) => r.id)),
        notif.completeSet,
        notif.changes,
      ),
    );
  } catch (e) {
    if (e instanceof RatePlanChangeError) return error(e.kind === 'unknown_room_type' ? 402 : 450, e.message);
    throw e;
  }
  return answer({ Success: '' });
}
