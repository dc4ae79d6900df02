/**
 * schema.org `LodgingReservation` (API.md 10), so mail clients that read it show the stay. Written
 * into a `<script type="application/ld+json">`, with `<` escaped so no text closes the script.
 */
export function lodgingReservationJsonLd(input: {
  code: string;
  cancelled: boolean;
  checkIn: string;
  checkOut: string;
  checkInTime: string;
  checkOutTime: string;
  /** The hotel's UTC offset on those dates, e.g. `+01:00`. */
  checkInOffset: string;
  checkOutOffset: string;
  guestName: string;
  hotelName: string;
  hotelEmail: string | undefined;
  total: { amount: number; currency: string };
  fractionDigits: number;
  url: string;
}): string {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'LodgingReservation',
    reservationNumber: input.code,
    reservationStatus: `https://schema.org/${input.cancelled ? 'ReservationCancelled' : 'ReservationConfirmed'}`,
    underName: { '@type': 'Person', name: input.guestName },
    reservationFor: {
      '@type': 'LodgingBusiness',
      name: input.hotelName,
      ...(input.hotelEmail ? { email: input.hotelEmail } : {}),
      url: input.url,
    },
    checkinTime: `${input.checkIn}T${input.checkInTime}:00${input.checkInOffset}`,
    checkoutTime: `${input.checkOut}T${input.checkOutTime}:00${input.checkOutOffset}`,
    totalPrice: (input.total.amount / 10 ** input.fractionDigits).toFixed(input.fractionDigits),
    priceCurrency: input.total.currency,
  };
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/** The UTC offset (`+01:00`) of `timezone` at `instant`. */
export function utcOffset(timezone: string, instant: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-]\d{2}:\d{2})/.exec(part ?? '');
  return match?.[1] ?? 'Z';
}
