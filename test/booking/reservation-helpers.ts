import assert from 'node:assert/strict';
import { bookStay as bookStayWith, type Json, type StayOptions } from '../booking/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR } from '../operator-access/helpers.ts';

/** The operator tests' usual stay: two adults, one room, two nights ten days ahead. */
const OPERATOR_STAY = { fromToday: 10, nights: 2, adults: 2, rooms: 1 };

/** A reservation booked through the public API (test/booking/helpers.ts bookStay, the operator tests' stay). */
export function bookStay(t: TestApp, hotelId: string, options: StayOptions = {}) {
  return bookStayWith(t, hotelId, options, OPERATOR_STAY);
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
