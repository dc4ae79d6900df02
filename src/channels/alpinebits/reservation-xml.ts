import { minorDigits } from '../../infra/currency.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';

/**
 * A reservation as an AlpineBits `HotelReservation` (HotelData 2022-10, 4.2.2): one `RoomStay` per
 * room (room type, rate plan, its guests, dates and price), the guest, the services and the
 * guest's comment, the cancellation terms and the hotel. Fields the standard restricts are left
 * out when Innkeep's value does not fit them (a room type id over 8 characters, a phone number
 * with letters) rather than sent invalid.
 */

/** A decimal in major units, as `AmountAfterTax` wants it. */
export function majorUnits(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** `n` split into `parts` whole shares, the first ones taking the remainder. */
function shares(n: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
}

function guestCounts(adults: number, childAges: number[]) {
  const byAge = new Map<number, number>();
  for (const age of childAges) byAge.set(age, (byAge.get(age) ?? 0) + 1);
  return [
    ...(adults > 0 ? [{ '@_Count': String(adults) }] : []),
    ...[...byAge].map(([age, count]) => ({ '@_Count': String(count), '@_Age': String(age) })),
  ];
}

function roomStays(r: ReservationRow) {
  const adults = shares(r.stay.adults, r.rooms);
  const children = Array.from({ length: r.rooms }, () => [] as number[]);
  r.stay.children.forEach((age, i) => {
    children[i % r.rooms]?.push(age);
  });
  const totals = shares(r.totalAmount, r.rooms);
  return Array.from({ length: r.rooms }, (_, i) => ({
    ...(r.roomTypeId.length <= 8 ? { RoomTypes: { RoomType: { '@_RoomTypeCode': r.roomTypeId } } } : {}),
    RatePlans: { RatePlan: { '@_RatePlanCode': r.ratePlanId } },
    GuestCounts: { GuestCount: guestCounts(adults[i] ?? 0, children[i] ?? []) },
    TimeSpan: { '@_Start': r.checkIn, '@_End': r.checkOut },
    Total: { '@_AmountAfterTax': majorUnits(totals[i] ?? 0, r.currency), '@_CurrencyCode': r.currency },
  }));
}

function customer(r: ReservationRow) {
  const phone = r.guest.phone?.replace(/[\s().-]/g, '');
  return {
    PersonName: { GivenName: r.guest.firstName || '-', Surname: r.guest.lastName || '-' },
    ...(phone && /^\+?[0-9]+$/.test(phone)
      ? { Telephone: [{ '@_PhoneTechType': '1', '@_PhoneNumber': phone }] }
      : {}),
    ...(r.guest.email && /^\S+@\S+$/.test(r.guest.email) ? { Email: r.guest.email } : {}),
  };
}

function globalInfo(r: ReservationRow, hotel: { id: string; name: string }) {
  const services = r.stay.lines.filter((l) => l.type === 'service');
  const comments = [
    ...(services.length > 0
      ? [
          {
            '@_Name': 'included services',
            ListItem: services.map((s, i) => ({
              '@_ListItem': String(i + 1),
              '@_Language': 'en',
              '#text': `${s.name} × ${s.quantity}: ${majorUnits(s.amount.amount, s.amount.currency)} ${s.amount.currency}`,
            })),
          },
        ]
      : []),
    ...(r.specialRequests ? [{ '@_Name': 'customer comment', Text: r.specialRequests }] : []),
  ];
  const policy = r.stay.cancellationPolicy;
  const terms = policy.refundable
    ? `Free cancellation until ${policy.freeCancellationUntil ?? r.checkIn}; after that the fee is ${majorUnits(policy.penalty.amount, policy.penalty.currency)} ${policy.penalty.currency}.`
    : 'Non-refundable.';
  // The promotion code (API.md 14.1) is the hotel's own code: a SpecialRequest in the HOTEL code
  // context (the ALPINEBITS context holds the standard's codes, such as pets), with what it took off.
  const promotion = r.stay.promotion;
  const discount = r.stay.lines
    .filter((l) => l.type === 'discount')
    .reduce((sum, l) => sum + l.amount.amount, 0);
  const specialRequests = promotion
    ? [
        {
          '@_RequestCode': promotion.code,
          '@_CodeContext': 'HOTEL',
          Text: {
            '@_TextFormat': 'PlainText',
            '#text': `Promotion code ${promotion.code} (${promotion.name})${discount < 0 ? `: ${majorUnits(discount, r.currency)} ${r.currency}` : ''}`,
          },
        },
      ]
    : [];
  return {
    ...(comments.length > 0 ? { Comments: { Comment: comments } } : {}),
    ...(specialRequests.length > 0 ? { SpecialRequests: { SpecialRequest: specialRequests } } : {}),
    CancelPenalties: { CancelPenalty: { PenaltyDescription: { Text: terms } } },
    HotelReservationIDs: {
      HotelReservationID: [{ '@_ResID_Type': '13', '@_ResID_Value': r.code, '@_ResID_Source': 'Innkeep' }],
    },
    BasicPropertyInfo:
      hotel.id.length <= 16
        ? { '@_HotelCode': hotel.id, '@_HotelName': hotel.name }
        : { '@_HotelName': hotel.name },
  };
}

/** One `HotelReservation`: a cancellation carries only its id; `modified` marks a changed one. */
export function hotelReservation(r: ReservationRow, hotel: { id: string; name: string }, modified: boolean) {
  const times = {
    '@_CreateDateTime': r.createdAt.toISOString(),
    '@_LastModifyDateTime': r.updatedAt.toISOString(),
  };
  if (r.status === 'cancelled') {
    return { ...times, '@_ResStatus': 'Cancelled', UniqueID: { '@_Type': '15', '@_ID': r.code } };
  }
  return {
    ...times,
    '@_ResStatus': modified ? 'Modify' : 'Reserved',
    UniqueID: { '@_Type': '14', '@_ID': r.code },
    RoomStays: { RoomStay: roomStays(r) },
    ResGuests: { ResGuest: { Profiles: { ProfileInfo: { Profile: { Customer: customer(r) } } } } },
    ResGlobalInfo: globalInfo(r, hotel),
  };
}
