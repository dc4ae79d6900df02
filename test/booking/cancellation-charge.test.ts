import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eur } from '../booking/helpers.ts';
import { type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { arrived, bookStay, onReservation } from './reservation-helpers.ts';

// GET /operator/reservations/{reservation} → cancellationCharge: what cancelling now would charge,
// so the desk can ask for confirmation showing it.

describe('operator reservation: what cancelling now would charge', () => {
  let app: OperatorApp;
  let hotel: string;
  before(async () => {
    app = await startOperatorApp();
    hotel = app.hotels[0].id;
  });
  after(() => app.t.close());

  const read = async (code: string) => {
    const response = await onReservation(app.t, app.root, 'GET', code);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().cancellationCharge;
  };

  it('is nothing before the free-cancellation moment, the penalty after it', async () => {
    const early = await bookStay(app.t, hotel, { fromToday: 10 });
    assert.deepEqual(await read(early.code), { fee: eur(0), refund: eur(0), due: eur(0) });
    // Free until 2 days before arrival (makeHotel's flex plan): tomorrow's stay pays one night.
    const late = await bookStay(app.t, hotel, { fromToday: 1 });
    assert.deepEqual(await read(late.code), { fee: eur(12000), refund: eur(0), due: eur(12000) });
  });

  it('is the total, already paid, for a prepaid non-refundable stay', async () => {
    const { code, reservation } = await bookStay(app.t, hotel, { fromToday: 10, ratePlanId: 'nonref' });
    assert.deepEqual(await read(code), { fee: reservation.total, refund: eur(0), due: eur(0) });
  });

  it('is null once the stay cannot be cancelled: cancelled, or the guest arrived', async () => {
    const cancelled = await bookStay(app.t, hotel, { fromToday: 10 });
    const response = await onReservation(app.t, app.root, 'POST', cancelled.code, '/cancel', {});
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(await read(cancelled.code), null);

    const inHouse = await bookStay(app.t, hotel, { fromToday: 0 });
    await arrived(app.t, app.root, inHouse.code);
    assert.equal(await read(inHouse.code), null);
  });
});
