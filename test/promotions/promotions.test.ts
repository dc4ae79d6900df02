/**
 * Promotion codes (API.md 14.1) through HTTP: the discount line in search, quote and reservation,
 * hidden rate plans, every reason a code does not apply, uses counted and given back, PATCH with a
 * code, and the operator's codes (saved ones win over the catalogue's, bad input changes nothing).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import {
  addDays,
  assertInvalid,
  assertLinesAddUp,
  assertProblem,
  book,
  cancel,
  type Json,
  localToday,
  modify,
  type QuoteBody,
  quoteOk,
  requestQuote,
  reserve,
  search,
  stay,
} from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

const PROMOTIONS = [
  { code: 'spring10', name: 'Spring offer', discount: { percent: 10 } },
  { code: 'TWENTY', name: 'Twenty off', discount: { amountPerNight: 2000 }, ratePlans: ['flex'] },
  { code: 'ALLFREE', name: 'All free', discount: { amountPerNight: 1_000_000 } },
  { code: 'CORP', name: 'Acme Corp', unlocksRatePlans: ['corporate'] },
  { code: 'LONG', name: 'Long stay', discount: { percent: 15 }, minNights: 5 },
  { code: 'LATER', name: 'Not yet', discount: { percent: 5 }, bookFrom: '2999-01-01' },
  { code: 'GONE', name: 'Gone', discount: { percent: 5 }, bookTo: '2000-01-01' },
  { code: 'ONCE', name: 'Once', discount: { percent: 50 }, maxUses: 1 },
  { code: 'PERGUEST', name: 'Per guest', discount: { percent: 5 }, maxUsesPerGuest: 1 },
  { code: 'SUITES', name: 'Suites only', discount: { percent: 5 }, roomTypes: ['suite'] },
];

function promoHotel(): HotelDef {
  const base = makeHotel();
  return {
    ...base,
    ratePlans: [
      ...base.ratePlans,
      {
        id: 'corporate',
        name: 'Corporate',
        refundable: true,
        prepayment: 'none',
        hidden: true,
        prices: { double: { base: 9000, includedAdults: 2 } },
      },
    ],
    promotions: structuredClone(PROMOTIONS),
  };
}

let app: OperatorApp;
const hotels = { a: promoHotel(), b: promoHotel() };
before(async () => {
  app = await startOperatorApp({}, [hotels.a, hotels.b]);
});
after(() => app.t.close());

const t = () => app.t;
function double(hotelId: string, nights = 3, ratePlanId = 'flex', from = 30): QuoteBody {
  return { hotelId, ...stay(t(), from, nights), adults: 2, roomTypeId: 'double', ratePlanId };
}
const searchBody = (hotelId: string, nights = 3, from = 30) => {
  const { roomTypeId: _r, ratePlanId: _p, ...body } = double(hotelId, nights, 'flex', from);
  return body;
};
const promoUrl = (hotelId: string, code = '') =>
  `${OPERATOR}/hotels/${hotelId}/promotions${code ? `/${code}` : ''}`;
const list = async (hotelId: string): Promise<Json[]> => {
  const res = await t().inject({ method: 'GET', url: promoUrl(hotelId), headers: auth(app.root) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
};
const put = (hotelId: string, code: string, body: unknown) =>
  t().inject({
    method: 'PUT',
    url: promoUrl(hotelId, code),
    headers: auth(app.root),
    payload: body as object,
  });
const del = (hotelId: string, code: string) =>
  t().inject({ method: 'DELETE', url: promoUrl(hotelId, code), headers: auth(app.root) });
const reason = (res: Json) => assertProblem(res, 422, 'promo_code_invalid').errors[0].reason;

describe('promotion codes in search and quote', () => {
  it('a percent code adds a negative discount line of the room lines, rounded half up, to offers and quotes', async () => {
    const id = hotels.a.id;
    const plain = await search(t(), searchBody(id));
    const withCode = await search(t(), { ...searchBody(id), promoCode: 'Spring10' } as Json);
    assert.equal(withCode.statusCode, 200, withCode.body);
    const flex = (r: Json) =>
      r.json().offers.find((o: Json) => o.roomType.id === 'double' && o.ratePlan.id === 'flex');
    assert.equal(flex(plain).promotion, undefined);
    assert.deepEqual(flex(withCode).promotion, { code: 'SPRING10', name: 'Spring offer' });
    // 3 nights × 12000 = 36000 of rooms: 10% = 3600 off.
    assert.equal(flex(withCode).total.amount, flex(plain).total.amount - 3600);
    const quote = await quoteOk(t(), { ...double(id), promoCode: 'spring10' } as Json);
    assert.deepEqual(quote.promotion, { code: 'SPRING10', name: 'Spring offer' });
    const discount = quote.lines.filter((l: Json) => l.type === 'discount');
    assert.equal(discount.length, 1);
    assert.deepEqual(
      { code: discount[0].code, quantity: discount[0].quantity, amount: discount[0].amount.amount },
      { code: 'SPRING10', quantity: 1, amount: -3600 },
    );
    assert.equal(quote.total.amount, flex(withCode).total.amount, 'search total = quote total');
    assertLinesAddUp(quote);
  });

  it('a percent of an odd amount rounds half up to the minor unit', async () => {
    const id = hotels.b.id;
    // 1 adult in a double is still 12000 a night; 1 night with 2 children → 12000 + 2×1500 = 15000.
    await put(id, 'ODD', { name: 'Odd', discount: { percent: 7 } });
    const q = await quoteOk(t(), { ...double(id, 1), children: [3], promoCode: 'ODD' } as Json);
    const rooms = q.lines
      .filter((l: Json) => l.type === 'room')
      .reduce((s: number, l: Json) => s + l.amount.amount, 0);
    const expected = Math.floor((rooms * 7 + 50) / 100);
    assert.equal(q.lines.find((l: Json) => l.type === 'discount').amount.amount, -expected);
    assertLinesAddUp(q);
  });

  it('amountPerNight is per room and night, never more than the room lines', async () => {
    const id = hotels.a.id;
    const q = await quoteOk(t(), { ...double(id, 2), rooms: 2, adults: 4, promoCode: 'twenty' } as Json);
    assert.equal(q.lines.find((l: Json) => l.type === 'discount').amount.amount, -2000 * 2 * 2);
    const free = await quoteOk(t(), { ...double(id, 2), promoCode: 'ALLFREE' } as Json);
    const rooms = free.lines
      .filter((l: Json) => l.type === 'room')
      .reduce((s: number, l: Json) => s + l.amount.amount, 0);
    assert.equal(free.lines.find((l: Json) => l.type === 'discount').amount.amount, -rooms);
    assert.ok(free.total.amount >= 0);
    assert.ok(free.cancellationPolicy.penalty.amount <= free.total.amount);
    assertLinesAddUp(free);
  });

  it('a hidden rate plan is offered only with a code that unlocks it', async () => {
    const id = hotels.a.id;
    const plans = (r: Json) => r.json().offers.map((o: Json) => o.ratePlan.id);
    assert.ok(!plans(await search(t(), searchBody(id))).includes('corporate'));
    const unlocked = await search(t(), { ...searchBody(id), promoCode: 'corp' } as Json);
    assert.equal(unlocked.statusCode, 200, unlocked.body);
    assert.ok(plans(unlocked).includes('corporate'));
    const corporate = unlocked.json().offers.find((o: Json) => o.ratePlan.id === 'corporate');
    assert.deepEqual(corporate.promotion, { code: 'CORP', name: 'Acme Corp' });
    assertInvalid(await requestQuote(t(), double(id, 3, 'corporate')), '/ratePlanId');
    assert.equal(
      reason(await requestQuote(t(), { ...double(id, 3, 'corporate'), promoCode: 'SPRING10' } as Json)),
      'not_applicable',
    );
    const q = await quoteOk(t(), { ...double(id, 3, 'corporate'), promoCode: 'CORP' } as Json);
    assert.equal(q.total.amount, 3 * 9000 + 3 * 2 * 200);
    // Not listed publicly, nor in the price calendar's prices.
    const publicHotel = await t().inject({ method: 'GET', url: `/api/v1/booking/hotels/${id}` });
    assert.ok(!publicHotel.json().ratePlans.some((p: Json) => p.id === 'corporate'));
  });

  it('each reason a code does not apply is said', async () => {
    const id = hotels.a.id;
    const s = (code: string, nights = 3) =>
      search(t(), { ...searchBody(id, nights), promoCode: code } as Json);
    assert.equal(reason(await s('NOPE')), 'unknown');
    assert.equal(reason(await s('LATER')), 'not_yet_valid');
    assert.equal(reason(await s('GONE')), 'expired');
    assert.equal(reason(await s('LONG', 3)), 'not_applicable');
    assert.equal((await s('LONG', 5)).statusCode, 200);
    assert.equal(
      reason(await requestQuote(t(), { ...double(id), promoCode: 'SUITES' } as Json)),
      'not_applicable',
    );
    const body = assertProblem(await s('GONE'), 422, 'promo_code_invalid');
    assert.equal(body.errors[0].path, '/promoCode');
  });

  it('a malformed code is a 400 naming promoCode', async () => {
    const id = hotels.a.id;
    assertInvalid(await search(t(), { ...searchBody(id), promoCode: 'a b' } as Json), '/promoCode');
    assertInvalid(await search(t(), { ...searchBody(id), promoCode: 'AB' } as Json), '/promoCode');
    assertInvalid(await search(t(), { ...searchBody(id), promoCode: 'AB\u0000C' } as Json), '/promoCode');
  });
});

describe('promotion codes on reservations', () => {
  it('the reservation shows its promotion; maxUses holds; a cancellation gives the use back', async () => {
    const id = hotels.a.id;
    const first = await book(t(), { ...double(id, 2, 'flex', 40), promoCode: 'ONCE' } as Json);
    assert.deepEqual(first.reservation.promotion, { code: 'ONCE', name: 'Once' });
    assert.ok(first.reservation.lines.some((l: Json) => l.type === 'discount'));
    const operatorRead = await t().inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${first.reservation.id}`,
      headers: auth(app.root),
    });
    assert.deepEqual(operatorRead.json().promotion, { code: 'ONCE', name: 'Once' });
    assert.equal((await list(id)).find((p) => p.code === 'ONCE').uses, 1);
    assert.equal(
      reason(await search(t(), { ...searchBody(id, 2, 41), promoCode: 'ONCE' } as Json)),
      'used_up',
    );

    // A quote made before the last use was taken: the booking refuses, takes no room.
    const { id: otherHotel } = hotels.b;
    await put(otherHotel, 'RACE1', { name: 'Race', discount: { percent: 5 }, maxUses: 1 });
    const q1 = await quoteOk(t(), { ...double(otherHotel, 2, 'flex', 40), promoCode: 'RACE1' } as Json);
    const q2 = await quoteOk(t(), { ...double(otherHotel, 2, 'flex', 40), promoCode: 'RACE1' } as Json);
    assert.equal((await reserve(t(), q1.id)).statusCode, 201);
    assert.equal(reason(await reserve(t(), q2.id)), 'used_up');

    const cancelled = await cancel(t(), first.reservation.id, first.token);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal((await list(id)).find((p) => p.code === 'ONCE').uses, 0);
    const again = await book(t(), { ...double(id, 2, 'flex', 42), promoCode: 'ONCE' } as Json);
    assert.equal(again.reservation.promotion.code, 'ONCE');
  });

  it('maxUsesPerGuest counts by e-mail, without regard to case', async () => {
    const id = hotels.a.id;
    await book(t(), { ...double(id, 1, 'flex', 50), promoCode: 'PERGUEST' } as Json, {
      guest: { firstName: 'Rui', lastName: 'Costa', email: 'rui@example.com' },
    });
    const q = await quoteOk(t(), { ...double(id, 1, 'flex', 51), promoCode: 'PERGUEST' } as Json);
    assert.equal(
      reason(
        await reserve(t(), q.id, {
          guest: { firstName: 'Rui', lastName: 'Costa', email: 'RUI@example.com' },
        }),
      ),
      'used_up',
    );
    const other = await reserve(t(), q.id, {
      guest: { firstName: 'Eva', lastName: 'Costa', email: 'eva@example.com' },
    });
    assert.equal(other.statusCode, 201, other.body);
  });

  it('PATCH adds, replaces and drops a code, re-priced, uses adjusted', async () => {
    const id = hotels.b.id;
    await put(id, 'PATCHME', { name: 'Patch', discount: { percent: 10 }, maxUses: 5 });
    await put(id, 'OTHER', { name: 'Other', discount: { amountPerNight: 1000 } });
    const booked = await book(t(), double(id, 2, 'flex', 60));
    const plainTotal = booked.reservation.total.amount;
    const uses = async (code: string) => (await list(id)).find((p) => p.code === code).uses;

    const added = await modify(t(), booked.reservation.id, booked.token, { promoCode: 'patchme' });
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(added.json().promotion, { code: 'PATCHME', name: 'Patch' });
    assert.equal(added.json().total.amount, plainTotal - 2400);
    assert.equal(await uses('PATCHME'), 1);

    // A stay change keeps the code.
    const longer = await modify(t(), booked.reservation.id, booked.token, {
      checkOut: addDays(booked.reservation.checkOut, 1),
    });
    assert.equal(longer.statusCode, 200, longer.body);
    assert.equal(longer.json().promotion.code, 'PATCHME');
    assert.equal(await uses('PATCHME'), 1);

    const replaced = await modify(t(), booked.reservation.id, booked.token, { promoCode: 'OTHER' });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.json().promotion.code, 'OTHER');
    assert.equal(await uses('PATCHME'), 0);
    assert.equal(await uses('OTHER'), 1);

    const refused = await modify(t(), booked.reservation.id, booked.token, { promoCode: 'NOPE' });
    assert.equal(reason(refused), 'unknown');
    const unchanged = await t().inject({
      method: 'GET',
      url: `/api/v1/booking/reservations/${booked.reservation.id}`,
      headers: { authorization: `Bearer ${booked.token}` },
    });
    assert.equal(unchanged.json().promotion.code, 'OTHER');

    const dropped = await modify(t(), booked.reservation.id, booked.token, { promoCode: null });
    assert.equal(dropped.statusCode, 200, dropped.body);
    assert.equal(dropped.json().promotion, undefined);
    assert.ok(!dropped.json().lines.some((l: Json) => l.type === 'discount'));
    assert.equal(await uses('OTHER'), 0);
  });
});

describe('operator promotion codes', () => {
  it('lists the catalogue codes, upper-cased, with their source', async () => {
    const codes = await list(hotels.a.id);
    const spring = codes.find((p) => p.code === 'SPRING10');
    assert.equal(spring.source, 'catalog');
    assert.deepEqual(spring.discount, { percent: 10 });
  });

  it('a saved code wins over the catalogue, a deleted one stays deleted, bad input changes nothing', async () => {
    const id = hotels.b.id;
    const saved = await put(id, 'spring10', { name: 'Spring, better', discount: { percent: 20 } });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(saved.json().code, 'SPRING10');
    assert.equal(saved.json().source, 'api');
    const q = await quoteOk(t(), { ...double(id), promoCode: 'SPRING10' } as Json);
    assert.equal(q.lines.find((l: Json) => l.type === 'discount').amount.amount, -7200);

    const before = JSON.stringify(await list(id));
    for (const bad of [
      { name: 'x', discount: { percent: 0 } },
      { name: 'x', discount: { percent: 101 } },
      { name: 'x', discount: { amountPerNight: 0 } },
      { name: 'x', discount: { amountPerNight: 12.5 } },
      { name: 'x', discount: { percent: 10 }, ratePlans: ['nope'] },
      { name: 'x', discount: { percent: 10 }, bookFrom: '2027-02-01', bookTo: '2027-01-01' },
      { name: 'x' },
      { name: 'x', discount: { percent: 10 }, code: 'OTHERCODE' },
      { name: 'x', discount: { percent: 10 }, extra: true },
    ]) {
      const res = await put(id, 'SPRING10', bad);
      assertProblem(res, 400, 'validation_error');
    }
    assertProblem(
      await put(id, 'no good', { name: 'x', discount: { percent: 10 } }),
      400,
      'validation_error',
    );
    assert.equal(JSON.stringify(await list(id)), before, 'nothing changed');

    assert.equal((await del(id, 'spring10')).statusCode, 204);
    assert.ok(!(await list(id)).some((p) => p.code === 'SPRING10'));
    assert.equal(reason(await search(t(), { ...searchBody(id), promoCode: 'SPRING10' } as Json)), 'unknown');
    assertProblem(await del(id, 'SPRING10'), 404, 'not_found');
    // Hotel a's catalogue code is untouched.
    assert.equal(
      (await search(t(), { ...searchBody(hotels.a.id), promoCode: 'SPRING10' } as Json)).statusCode,
      200,
    );
  });

  it('needs inventory:write on a hotel the key sees', async () => {
    const res = await t().inject({ method: 'GET', url: promoUrl(hotels.a.id) });
    assertProblem(res, 401, 'unauthorized');
    assertProblem(
      await t().inject({ method: 'GET', url: promoUrl('no-such-hotel'), headers: auth(app.root) }),
      404,
      'not_found',
    );
  });

  it('today is the hotel’s: bookTo today still applies', async () => {
    const id = hotels.b.id;
    const today = localToday(t());
    await put(id, 'TODAY', { name: 'Today', discount: { percent: 5 }, bookFrom: today, bookTo: today });
    assert.equal((await search(t(), { ...searchBody(id), promoCode: 'TODAY' } as Json)).statusCode, 200);
  });
});
