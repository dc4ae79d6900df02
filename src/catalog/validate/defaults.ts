import {
  DEFAULT_MAX_UNPAID_NIGHTS,
  type Hotel,
  type HotelDef,
  type RestrictionDef,
  type RoomPrice,
  type SeasonDef,
  type TaxDef,
} from '../catalog.schema.ts';
import { loadName } from '../localized-name.ts';
import { normalCode } from '../promotion.schema.ts';
import type { Photo, PhotoDef } from '../selling.schema.ts';

/** Defaults. Objects are rebuilt from known fields only, so ignored properties never reach the rules. */
export function withDefaults(hotel: HotelDef): Hotel {
  return {
    id: hotel.id,
    ...loadName(hotel.name),
    timezone: hotel.timezone,
    currency: hotel.currency,
    checkInTime: hotel.checkInTime ?? '15:00',
    checkOutTime: hotel.checkOutTime ?? '11:00',
    maxDaysBeforeArrival: hotel.maxDaysBeforeArrival ?? null,
    maxUnpaidNights: hotel.maxUnpaidNights ?? DEFAULT_MAX_UNPAID_NIGHTS,
    ...(hotel.email !== undefined ? { email: hotel.email } : {}),
    ...(hotel.checkinInviteDays !== undefined ? { checkinInviteDays: hotel.checkinInviteDays } : {}),
    ...(hotel.description !== undefined ? { description: loadName(hotel.description) } : {}),
    ...(hotel.photos ? { photos: hotel.photos.map(loadPhoto) } : {}),
    ...(hotel.address !== undefined ? { address: loadName(hotel.address) } : {}),
    ...(hotel.location ? { location: { lat: hotel.location.lat, lon: hotel.location.lon } } : {}),
    roomTypes: hotel.roomTypes.map((rt) => ({
      id: rt.id,
      ...loadName(rt.name),
      count: rt.count,
      maxAdults: rt.maxAdults,
      maxChildren: rt.maxChildren,
      maxOccupancy: rt.maxOccupancy,
      ...pickDefined(rt, ['minOccupancy', 'standardOccupancy']),
      ...(rt.roomNumbers ? { roomNumbers: [...rt.roomNumbers] } : {}),
      ...(rt.description !== undefined ? { description: loadName(rt.description) } : {}),
      ...(rt.photos ? { photos: rt.photos.map(loadPhoto) } : {}),
      ...(rt.sizeM2 !== undefined ? { sizeM2: rt.sizeM2 } : {}),
      ...(rt.beds ? { beds: rt.beds.map((b) => ({ type: b.type, count: b.count })) } : {}),
      ...(rt.amenities ? { amenities: [...new Set(rt.amenities)] } : {}),
    })),
    ratePlans: hotel.ratePlans.map((rp) => ({
      id: rp.id,
      ...loadName(rp.name),
      refundable: rp.refundable,
      prepayment: rp.prepayment,
      ...(rp.prepayment === 'deposit' && rp.deposit
        ? { deposit: { ...rp.deposit }, balanceDueDays: rp.balanceDueDays ?? 0 }
        : {}),
      freeCancellationDays: rp.freeCancellationDays ?? 0,
      penaltyNights: rp.penaltyNights ?? 1,
      prices: mapValues(rp.prices ?? {}, (price) => ({ ...knownPriceFields(price), base: price.base })),
      seasons: (rp.seasons ?? []).map(
        (season): SeasonDef => ({
          from: season.from,
          to: season.to,
          prices: mapValues(season.prices, knownPriceFields),
        }),
      ),
      ...(rp.pricing ? { pricing: structuredClone(rp.pricing) } : {}),
      ...(rp.hidden === true ? { hidden: true } : {}),
    })),
    services: (hotel.services ?? []).map((s) => ({
      id: s.id,
      ...loadName(s.name),
      pricing: s.pricing,
      amount: s.amount,
    })),
    taxes: (hotel.taxes ?? []).map(knownTaxFields),
    restrictions: (hotel.restrictions ?? []).map(knownRestrictionFields),
    promotions: (hotel.promotions ?? []).map((p) => ({ ...structuredClone(p), code: normalCode(p.code) })),
    ...(hotel.legal
      ? {
          legal: {
            name: hotel.legal.name,
            taxId: hotel.legal.taxId,
            address: hotel.legal.address,
            country: hotel.legal.country,
            invoiceSeries: hotel.legal.invoiceSeries ?? 'F',
            creditNoteSeries: hotel.legal.creditNoteSeries ?? 'R',
            verifactu: hotel.legal.verifactu ?? false,
          },
        }
      : {}),
  };
}

/**
 * A photo as the file gives it. A file is checked and measured later (`photos/photo-files.ts`, which
 * needs the catalogue's folder): until then its `hash` is empty and its path the one given.
 */
function loadPhoto(photo: PhotoDef): Photo {
  const alt = photo.alt !== undefined ? { alt: loadName(photo.alt) } : {};
  if ('url' in photo) return { url: photo.url, ...alt };
  return { file: { path: photo.file, hash: '', width: 0, height: 0 }, ...alt };
}

/** A tax as the file gives it. */
type HotelTaxDef = NonNullable<HotelDef['taxes']>[number];

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

function pickDefined<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

function knownPriceFields(price: Partial<RoomPrice>): Partial<RoomPrice> {
  return pickDefined(price, ['base', 'includedAdults', 'extraAdult', 'child']);
}

function knownTaxFields(tax: HotelTaxDef): TaxDef {
  return tax.type === 'percent_included'
    ? { code: tax.code, ...loadName(tax.name), type: tax.type, rate: tax.rate }
    : { code: tax.code, ...loadName(tax.name), type: tax.type, amount: tax.amount };
}

function knownRestrictionFields(r: RestrictionDef): RestrictionDef {
  return {
    from: r.from,
    to: r.to,
    ...pickDefined(r, ['stopSell', 'closedToArrival', 'closedToDeparture', 'minStay', 'maxStay']),
    ...(r.roomTypes ? { roomTypes: [...r.roomTypes] } : {}),
    ...(r.ratePlans ? { ratePlans: [...r.ratePlans] } : {}),
  };
}
