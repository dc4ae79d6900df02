/**
 * `GET /operator/hotels/{hotel}/guest-register` (API.md 7.3): JSON and CSV, document numbers in
 * full, the audit entry of every read, `null` documents after the identity purge.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { purgeIdentityData } from '../../src/checkin/commands/purge-identity-data.ts';
import { addDays, assertInvalid, assertProblem, type Json } from '../booking/helpers.ts';
import {
  type Booked,
  bookStay,
  completeCheckin,
  DOCUMENT_NUMBER,
  GUEST_DETAILS,
  identityDocument,
  moveClockTo,
  openedSession,
  stepOk,
  wallTimeUtc,
} from '../checkin/helpers.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

describe('guest register', () => {
  let app: OperatorApp;
  let hotel: string;
  let date: string;
  let full: Booked; // three guests, all steps done
  let odd: Booked; // names a CSV must quote; details and companions only
  let oddSession: string;
  let key: string;
  let keyId: string;

  const register = (query: Record<string, string>, headers: Record<string, string> = {}, id = hotel) =>
    app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${id}/guest-register?${new URLSearchParams(query)}`,
      headers: { ...auth(key), ...headers },
    });

  before(async () => {
    app = await startOperatorApp({ IDENTITY_RETENTION_DAYS: '30' });
    const def = app.hotels[0];
    hotel = def.id;
    ({ id: keyId, key } = await makeKey(app, { scopes: ['guests:identity'], hotelIds: [hotel] }));

    full = await bookStay(app.t, def, { adults: 2, children: [7], fromToday: 6 });
    date = full.checkIn;
    await completeCheckin(app.t, (await openedSession(app.t, full)).id, full, 2);

    odd = await bookStay(app.t, def, { adults: 2, children: [5], fromToday: 6 });
    oddSession = (await openedSession(app.t, odd)).id;
    await stepOk(app.t, oddSession, 'guest_details', {
      ...GUEST_DETAILS,
      firstName: 'Ørjan "Jr"',
      lastName: 'Berg, Sr',
    });
    await stepOk(app.t, oddSession, 'companions', {
      guests: [
        { firstName: '李', lastName: '小龍', dateOfBirth: '1990-11-27', nationality: 'CN' },
        { firstName: 'x;=1+1', lastName: '=SUM(A1)', dateOfBirth: '1991-01-02', nationality: 'NO' },
      ],
    });

    // Not in the register: details not given; cancelled; another date.
    await bookStay(app.t, def, { fromToday: 6 });
    const other = await bookStay(app.t, def, { fromToday: 7 });
    await stepOk(app.t, (await openedSession(app.t, other)).id, 'guest_details', GUEST_DETAILS);
  });
  after(() => app.t.close());

  it('lists every guest of the day’s arrivals whose details are given, the document number in full', async () => {
    const res = await register({ date });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const [first, second] = [full, odd].sort((x, y) => (x.code < y.code ? -1 : 1)) as [Booked, Booked];
    const stay = (b: Booked) => ({ reservationId: b.code, checkIn: b.checkIn, checkOut: b.checkOut });
    const expected: Record<string, Json[]> = {
      [full.code]: [
        {
          ...stay(full),
          role: 'primary',
          firstName: 'Ana',
          lastName: 'Silva',
          dateOfBirth: '1988-04-02',
          nationality: 'PT',
          document: {
            type: 'passport',
            number: DOCUMENT_NUMBER,
            issuingCountry: 'PT',
            expiryDate: identityDocument(full.checkOut).expiryDate,
          },
        },
        ...[0, 1].map((i) => ({
          ...stay(full),
          role: 'companion',
          firstName: `Guest${i}`,
          lastName: 'Silva',
          dateOfBirth: '2015-06-14',
          nationality: 'ES',
          document: null,
        })),
      ],
      [odd.code]: [
        {
          ...stay(odd),
          role: 'primary',
          firstName: 'Ørjan "Jr"',
          lastName: 'Berg, Sr',
          dateOfBirth: '1988-04-02',
          nationality: 'PT',
          document: null,
        },
        {
          ...stay(odd),
          role: 'companion',
          firstName: '李',
          lastName: '小龍',
          dateOfBirth: '1990-11-27',
          nationality: 'CN',
          document: null,
        },
        {
          ...stay(odd),
          role: 'companion',
          firstName: 'x;=1+1',
          lastName: '=SUM(A1)',
          dateOfBirth: '1991-01-02',
          nationality: 'NO',
          document: null,
        },
      ],
    };
    assert.deepEqual(res.json(), {
      data: [...(expected[first.code] ?? []), ...(expected[second.code] ?? [])],
    });
    assert.deepEqual((await register({ date: addDays(date, -1) })).json(), { data: [] });
  });

  it('answers CSV for Accept: text/csv, every text cell quoted (RFC 4180, API.md 7.3)', async () => {
    const res = await register({ date }, { accept: 'text/csv' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/);
    assert.match(
      String(res.headers['content-disposition']),
      new RegExp(`guest-register-${hotel}-${date}\\.csv`),
    );
    const lines = res.body.split('\r\n');
    assert.equal(
      lines[0],
      [
        'reservationId',
        'role',
        'firstName',
        'lastName',
        'dateOfBirth',
        'nationality',
        'documentType',
        'documentNumber',
        'documentIssuingCountry',
        'documentExpiryDate',
        'checkIn',
        'checkOut',
      ]
        .map((name) => `"${name}"`)
        .join(','),
    );
    const row = (...cells: Array<string | null>) =>
      cells.map((cell) => (cell === null ? '' : `"${cell}"`)).join(',');
    assert.equal(lines.at(-1), '', 'every record ends with CRLF');
    const expiry = identityDocument(full.checkOut).expiryDate;
    assert.ok(
      lines.includes(
        row(
          full.code,
          'primary',
          'Ana',
          'Silva',
          '1988-04-02',
          'PT',
          'passport',
          DOCUMENT_NUMBER,
          'PT',
          expiry,
          full.checkIn,
          full.checkOut,
        ),
      ),
      res.body,
    );
    assert.ok(
      lines.includes(
        row(
          odd.code,
          'primary',
          'Ørjan ""Jr""',
          'Berg, Sr',
          '1988-04-02',
          'PT',
          null,
          null,
          null,
          null,
          odd.checkIn,
          odd.checkOut,
        ),
      ),
      res.body,
    );
    assert.ok(
      lines.includes(
        row(
          odd.code,
          'companion',
          '李',
          '小龍',
          '1990-11-27',
          'CN',
          null,
          null,
          null,
          null,
          odd.checkIn,
          odd.checkOut,
        ),
      ),
      res.body,
    );
    // `x;=1+1` stays one quoted cell for a spreadsheet splitting on `;`; `=SUM(A1)` is defused.
    assert.ok(
      lines.includes(
        row(
          odd.code,
          'companion',
          'x;=1+1',
          "'=SUM(A1)",
          '1991-01-02',
          'NO',
          null,
          null,
          null,
          null,
          odd.checkIn,
          odd.checkOut,
        ),
      ),
      res.body,
    );
    // JSON wins a tie or a preference for it; anything else is JSON too.
    for (const accept of ['application/json, text/csv', 'text/csv;q=0.5, application/json', '*/*']) {
      const other = await register({ date }, { accept });
      assert.match(String(other.headers['content-type']), /^application\/json/, accept);
    }
    assert.match(
      String(
        (await register({ date }, { accept: 'application/json;q=0.1, text/csv' })).headers['content-type'],
      ),
      /^text\/csv/,
    );
  });

  it('writes an audit entry for every read: key, hotel, date and count, no identity data', async () => {
    await register({ date }, { accept: 'text/csv' });
    const res = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/audit-log?limit=200`,
      headers: auth(app.root),
    });
    const reads = res
      .json()
      .data.filter((e: Json) => e.action === 'guest_register.read' && e.actor.id === keyId);
    assert.ok(reads.length >= 3, res.body);
    assert.deepEqual(
      {
        ...reads[0],
        id: undefined,
        at: undefined,
        requestId: undefined,
        actor: { ...reads[0].actor, name: undefined },
      },
      {
        id: undefined,
        at: undefined,
        requestId: undefined,
        actor: { type: 'key', id: keyId, name: undefined },
        hotelId: hotel,
        hotelIds: [hotel],
        action: 'guest_register.read',
        target: { type: 'guest_register', id: `${hotel}/${date}` },
        details: { date, guests: 6, format: 'csv' },
      },
    );
    assert.match(reads[0].requestId, /\S/);
    const text = JSON.stringify(reads);
    for (const secret of [DOCUMENT_NUMBER, 'Silva', 'Ørjan', '1988-04-02'])
      assert.ok(!text.includes(secret), secret);
  });

  it('answers 400 without a valid date, 403 without guests:identity, 404 for another hotel', async () => {
    assertInvalid(await register({}), '/query/date');
    assertInvalid(await register({ date: '2027-02-30' }), '/query/date');
    assertInvalid(await register({ date, extra: '1' }), '/query/extra');
    assertProblem(await register({ date }, {}, app.hotels[1].id), 404, 'not_found');
    const { key: reader } = await makeKey(app, { scopes: ['reservations:read', 'keys:write'] });
    assertProblem(await register({ date }, auth(reader)), 403, 'forbidden');
  });

  it('shows the document as null once the identity purge has run', async () => {
    await stepOk(app.t, oddSession, 'identity_document', identityDocument(odd.checkOut));
    const before = (await register({ date })).json().data.filter((g: Json) => g.document !== null);
    assert.equal(before.length, 2);
    const def = app.hotels[0];
    moveClockTo(
      app.t,
      wallTimeUtc(addDays(full.checkOut, 30), def.checkOutTime ?? '11:00', def.timezone),
      1000,
    );
    assert.ok((await purgeIdentityData(app.t.db, app.t.clock.now(), 30)) >= 2);
    const after = (await register({ date })).json().data;
    assert.equal(after.length, 6);
    assert.ok(after.every((g: Json) => g.document === null));
  });
});
