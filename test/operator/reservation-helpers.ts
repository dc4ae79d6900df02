import assert from 'node:assert/strict';
import { book, type Json, stay } from '../booking/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR } from './helpers.ts';

/** A reservation booked through the public API: its code, access token and body. */
export async function bookStay(
  t: TestApp,
  hotelId: string,
  options: { fromToday?: number; nights?: number; ratePlanId?: string; rooms?: number; adults?: number } = {},
): Promise<{ code: string; token: string; reservation: Json; etag: string }> {
  const { checkIn, checkOut } = stay(t, options.fromToday ?? 10, options.nights ?? 2);
  const ratePlanId = options.ratePlanId ?? 'flex';
  const booked = await book(
    t,
    {
      hotelId,
      checkIn,
      checkOut,
      adults: options.adults ?? 2,
      rooms: options.rooms ?? 1,
      roomTypeId: 'double',
      ratePlanId,
    },
    ratePlanId === 'nonref' ? { payment: { token: 'tok_visa' } } : {},
  );
  return {
    code: booked.reservation.id,
    token: booked.token,
    reservation: booked.reservation,
    etag: booked.etag,
  };
}

/** An operator request on a reservation: `path` after `/operator/reservations/{code}`. */
export function onReservation(
  t: TestApp,
  key: string,
  method: 'GET' | 'PATCH' | 'POST',
  code: string,
  path = '',
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return t.inject({
    method,
    url: `${OPERATOR}/reservations/${code}${path}`,
    headers: { ...auth(key), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Moves a booked reservation in the state the front desk needs, asserting each step. */
export async function arrived(t: TestApp, key: string, code: string, roomNumbers?: string[]) {
  const response = await onReservation(t, key, 'POST', code, '/arrive', roomNumbers ? { roomNumbers } : {});
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

/** Events written for a reservation, in commit order (read from the outbox table directly). */
export async function eventsOf(t: TestApp, code: string): Promise<Array<{ type: string; data: Json }>> {
  const { rows } = await t.db.query<{ type: string; data: Json }>(
    `SELECT type, data FROM events WHERE data->'reservation'->>'id' = $1 ORDER BY position`,
    [code],
  );
  return rows;
}
