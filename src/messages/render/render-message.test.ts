import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCatalog } from '../../catalog/catalog.validate.ts';
import type { Reservation } from '../../reservations/reservation.schemas.ts';
import { renderMessage } from './render-message.ts';

const { hotels } = parseCatalog({
  hotels: [
    {
      id: 'harbour-view',
      name: 'Harbour View',
      timezone: 'Europe/Lisbon',
      currency: 'EUR',
      email: 'stay@harbour.example',
      roomTypes: [
        { id: 'double', name: 'Double Room', count: 2, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      ],
      ratePlans: [
        {
          id: 'flex',
          name: 'Flexible',
          refundable: true,
          prepayment: 'none',
          freeCancellationDays: 2,
          prices: { double: { base: 12000 } },
        },
      ],
    },
  ],
});
const hotel = hotels[0] as (typeof hotels)[number];
const eur = (amount: number) => ({ amount, currency: 'EUR' });

const reservation = {
  id: 'R7K3M9Q2X',
  status: 'confirmed',
  hotelId: 'harbour-view',
  checkIn: '2027-03-01',
  checkOut: '2027-03-04',
  nights: 3,
  adults: 2,
  children: [7],
  rooms: 1,
  services: [],
  roomType: { id: 'double', name: 'Double Room' },
  ratePlan: { id: 'flex', name: 'Flexible', refundable: true, prepayment: 'none' },
  guest: { firstName: 'Ana', lastName: 'Silva <b>', email: 'ana@example.com', language: 'en' },
  specialRequests: '<script>alert(1)</script>',
  lines: [
    {
      type: 'room',
      code: 'double',
      date: '2027-03-01',
      quantity: 1,
      unitAmount: eur(13500),
      amount: eur(13500),
    },
  ],
  total: eur(55200),
  includedTaxes: [],
  cancellationPolicy: {
    refundable: true,
    freeCancellationUntil: '2027-02-27T00:00:00Z',
    penalty: eur(13500),
  },
  payment: { status: 'unpaid', paid: eur(0), due: eur(55200) },
  cancellation: null,
  checkin: { status: 'not_started' },
  version: 2,
  createdAt: '2027-01-10T12:03:00Z',
  updatedAt: '2027-01-10T12:03:00Z',
} as unknown as Reservation;

const base = {
  reservation,
  hotel,
  publicBaseUrl: 'https://book.example.com',
  now: new Date('2027-01-10T12:00:00Z'),
};

test('a confirmation: every language, the terms as they stand, escaped HTML, calendar and JSON-LD', () => {
  const en = renderMessage({ ...base, kind: 'booking_confirmation', language: 'en' });
  assert.equal(en.subject, 'Your booking at Harbour View is confirmed (R7K3M9Q2X)');
  assert.match(en.text, /Free cancellation until 27 February 2027 at 00:00; after that €135\.00\./);
  assert.match(en.text, /Due at the hotel: €552\.00/);
  assert.match(en.text, /Reply to this e-mail/);
  assert.ok(!en.html.includes('<script>alert'), 'guest text is escaped');
  assert.ok(en.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.match(en.calendar ?? '', /METHOD:PUBLISH/);
  assert.match(en.calendar ?? '', /UID:R7K3M9Q2X@book\.example\.com/);
  assert.match(en.calendar ?? '', /SEQUENCE:2/);
  const ld = JSON.parse(/application\/ld\+json">(.*?)<\/script>/s.exec(en.html)?.[1] ?? '{}');
  assert.equal(ld.checkinTime, '2027-03-01T15:00:00+00:00');
  assert.equal(ld.checkoutTime, '2027-03-04T11:00:00+00:00');
  assert.equal(ld.underName.name, 'Ana Silva <b>');
  assert.ok(!/<\/script>/.test(/application\/ld\+json">(.*?)<\/script>/s.exec(en.html)?.[1] ?? ''));

  const es = renderMessage({ ...base, kind: 'booking_confirmation', language: 'es' });
  assert.match(es.subject, /Su reserva en Harbour View está confirmada/);
  assert.match(es.text, /552,00\s€/);
  const pt = renderMessage({ ...base, kind: 'booking_confirmation', language: 'pt' });
  assert.match(pt.text, /Cancelamento gratuito até/);
});

test('a cancellation cancels the calendar event; the invitation has its link and no calendar', () => {
  const cancelled = {
    ...reservation,
    status: 'cancelled',
    version: 3,
    cancellation: { cancelledAt: '2027-02-28T10:00:00Z', reason: null, fee: eur(13500), refund: eur(0) },
  } as unknown as Reservation;
  const message = renderMessage({
    ...base,
    reservation: cancelled,
    kind: 'booking_cancelled',
    language: 'en',
  });
  assert.match(message.calendar ?? '', /METHOD:CANCEL/);
  assert.match(message.calendar ?? '', /STATUS:CANCELLED/);
  assert.match(message.text, /Cancellation fee: €135\.00/);
  assert.match(message.html, /ReservationCancelled/);

  const link = 'https://book.example.com/checkin/cks_abc';
  const invitation = renderMessage({
    ...base,
    kind: 'checkin_invitation',
    language: 'en',
    invitationLink: link,
  });
  assert.equal(invitation.calendar, null);
  assert.ok(invitation.text.includes(link));
  assert.ok(invitation.html.includes(`href="${link}"`));
  assert.ok(!invitation.html.includes('ld+json'));
});

test('per-language catalogue names are used when the catalogue gives them', () => {
  const named = { ...hotel, names: { pt: 'Vista do Porto' } } as typeof hotel;
  const message = renderMessage({ ...base, hotel: named, kind: 'booking_confirmation', language: 'pt' });
  assert.match(message.subject, /Vista do Porto/);
});

test('room types and price lines take their names in the guest’s language, else the plain name', () => {
  const named = {
    ...hotel,
    roomTypes: hotel.roomTypes.map((r) => ({ ...r, names: { pt: 'Quarto duplo' } })),
    ratePlans: hotel.ratePlans.map((r) => ({ ...r, names: { pt: 'Flexível' } })),
  } as typeof hotel;
  const pt = renderMessage({ ...base, hotel: named, kind: 'booking_confirmation', language: 'pt' });
  assert.match(pt.text, /Quarto duplo/);
  assert.match(pt.text, /Flexível/);
  assert.ok(!pt.text.includes('Double Room'));
  const es = renderMessage({ ...base, hotel: named, kind: 'booking_confirmation', language: 'es' });
  assert.match(es.text, /Double Room/);
  assert.match(es.text, /Flexible/);
});
