import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { hotelTag } from '../../src/catalog/hotel-tag.ts';
import { assertInvalid, GUEST, quoteOk, reserve, stay } from '../booking/helpers.ts';
import { bookStay, getSession, openedSession, startCheckinApp } from './helpers.ts';

// Quote and check-in session ids carry their hotel's tag (issue 37), so a request naming one reads
// that hotel's rows only (one shard on Citus); ids made before tags keep working.

const base32 = (bytes: number) => {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  return [...randomBytes(Math.ceil((bytes * 8) / 5))].map((b) => alphabet[b % 32]).join('');
};

describe('identifiers that carry their hotel', () => {
  it('a quote id is q_, its hotel tag and 128 random bits; one from before tags still books', async (t) => {
    const { t: app, hotel } = await startCheckinApp(t);
    const body = {
      hotelId: hotel.id,
      ...stay(app, 10, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    };
    const tagged = await quoteOk(app, body);
    assert.match(tagged.id, new RegExp(`^q_${hotelTag(hotel.id)}[0-9a-z]{26}$`));
    assert.equal((await reserve(app, tagged.id)).statusCode, 201);

    const older = await quoteOk(app, body);
    const olderId = `q_${base32(16).slice(0, 26)}`;
    await app.db.query(
      `UPDATE quotes SET id = $1, body = jsonb_set(body, '{id}', to_jsonb($1::text)) WHERE id = $2`,
      [olderId, older.id],
    );
    const res = await reserve(app, olderId, { guest: GUEST });
    assert.equal(res.statusCode, 201, res.body);
  });

  it('a quote id with another hotel’s tag, or of no shape made here, is an unknown quote', async (t) => {
    const { t: app, hotel } = await startCheckinApp(t);
    const quote = await quoteOk(app, {
      hotelId: hotel.id,
      ...stay(app, 10, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const foreign = `q_${hotelTag('some-other-hotel')}${quote.id.slice(8)}`;
    assertInvalid(await reserve(app, foreign), '/quoteId');
    assertInvalid(await reserve(app, `${quote.id}x`), '/quoteId');
  });

  it('a session id is cks_, its hotel tag and 160 random bits; one from before tags is still reached', async (t) => {
    const { t: app, hotel } = await startCheckinApp(t);
    const booked = await bookStay(app, hotel);
    const { id } = await openedSession(app, booked);
    assert.match(id, new RegExp(`^cks_${hotelTag(hotel.id)}[0-9a-z]{32}$`));
    assert.equal((await getSession(app, id)).statusCode, 200);
    // Another hotel's tag on the same random part names nothing.
    const foreign = `cks_${hotelTag('some-other-hotel')}${id.slice(10)}`;
    assert.equal((await getSession(app, foreign)).statusCode, 404);

    const olderId = `cks_${base32(20).slice(0, 32)}`;
    await app.db.query('UPDATE checkin_sessions SET token_hash = $1 WHERE token_hash = $2', [
      createHash('sha256').update(olderId).digest(),
      createHash('sha256').update(id).digest(),
    ]);
    const res = await getSession(app, olderId);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().session.id, olderId);
  });
});
