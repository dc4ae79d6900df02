import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Database } from '../../../src/infra/db/database.ts';
import { PROBLEMS, type ProblemCode } from '../../../src/infra/http/problems.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { hostileValue, nearValid } from './schema-arbitrary.ts';

const FUZZ_SEED = process.env.FUZZ_SEED;

/** The share of the full request count a local run sends (CI sends the full count). */
const LOCAL_SHARE = 0.2;

/**
 * How many generated requests to send to an endpoint whose full count is `full`: all of them in CI
 * (CI=true) or with FUZZ_RUNS=full, a fifth locally so `npm test` stays quick enough to run
 * often. Either way every run is seeded (FUZZ_SEED, or a new seed printed on failure), and
 * `FUZZ_SEED=<seed>` with the same FUZZ_RUNS replays a failure exactly.
 */
export function fuzzRuns(full: number): number {
  const all = process.env.CI === 'true' || process.env.FUZZ_RUNS === 'full';
  return all ? full : Math.ceil(full * LOCAL_SHARE);
}

export interface FuzzRequest {
  kind: 'valid' | 'near-valid' | 'hostile';
  method: string;
  url: string;
  headers: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer is sent as is, with the given content type. */
  payload?: unknown;
  remoteAddress: string;
}

/** Tables whose rows may change on a rejected request by design (API.md): left out of the snapshot. */
const CHANGES_ON_REJECTION = new Set([
  'idempotency_keys', // completed responses below 500 are stored and replayed
  'hotel_idempotency_keys', // the same, of a hotel's requests (a booking, a quote)
  'checkin_proof_failures', // failed check-in proofs are counted against guessing
  'schema_migrations',
]);

/**
 * A fingerprint of every row of every table (but those above): a rejected request must leave it
 * exactly as it was, so a failure cannot have half-applied anything.
 */
const snapshotSql = new WeakMap<Database, string>();

/**
 * A table changes only when a transaction commits under an id of its own. So when no transaction
 * with an id from the oldest that could still run as the fingerprint was taken up to the next to
 * be assigned now has committed, the state is still the fingerprint's, and hashing every row of
 * every table again is skipped. The ids are read without assigning one. They are per server: on
 * PostgreSQL other databases' commits count too, which only means the fingerprint is taken more
 * often.
 */
async function committedSince(db: Database, since: bigint): Promise<boolean> {
  // On Citus a transaction that writes only a hotel's shard commits on its worker and takes no id
  // on the coordinator, whose ids this reads: a later rejected request was compared with a state
  // from before an accepted one (FUZZ_SEED=-791770623, issue 37). There, every request is checked.
  if (await onCitus(db)) return true;
  const { rows } = await db.query<{ committed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM generate_series($1::bigint, pg_snapshot_xmax(pg_current_snapshot())::text::bigint - 1) AS id
                    WHERE pg_xact_status(id::text::xid8) = 'committed') AS committed`,
    [since.toString()],
  );
  return rows[0]?.committed === true;
}

const citusDatabases = new WeakMap<Database, Promise<boolean>>();
function onCitus(db: Database): Promise<boolean> {
  let known = citusDatabases.get(db);
  if (!known) {
    known = db
      .query<{ citus: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
      )
      .then(({ rows }) => rows[0]?.citus === true);
    citusDatabases.set(db, known);
  }
  return known;
}

/** The fingerprint, and the oldest transaction id that could change the state after it. */
async function fingerprint(db: Database) {
  const { rows } = await db.query<{ oldest: string }>(
    `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS oldest`,
  );
  return { since: BigInt(rows[0]?.oldest ?? '0'), state: await stateSnapshot(db) };
}

export async function stateSnapshot(db: Database): Promise<Record<string, string>> {
  let sql = snapshotSql.get(db);
  if (!sql) {
    const { rows: tables } = await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const names = tables
      .map((t) => t.name)
      .filter((n) => !CHANGES_ON_REJECTION.has(n) && /^[a-z_]+$/.test(n));
    sql = names
      // Order-free (no sort): the row count and the sum of every row's hash.
      .map(
        (n) =>
          `SELECT '${n}' AS name, count(*) || ':' || coalesce(sum(hashtext(t::text)::bigint), 0) AS hash FROM ${n} t`,
      )
      .join(' UNION ALL ');
    snapshotSql.set(db, sql);
  }
  const { rows } = await db.query<{ name: string; hash: string }>(sql);
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonp',
  'application/vnd.api+json',
  'application/json-patch+json',
  'application/octet-stream',
  'json',
  ';',
];

/** Raw bodies no serialiser would write: broken, duplicated, polluted, oversized, mis-encoded. */
export function hostileBody(
  valid: fc.Arbitrary<unknown>,
): fc.Arbitrary<{ body: string | Buffer; contentType?: string }> {
  const json = 'application/json';
  return fc.oneof(
    // The same key twice, the second one hostile.
    fc.tuple(valid, fc.nat(), hostileValue).map(([v, pick, hostile]) => {
      const text = JSON.stringify(v) ?? '{}';
      const keys = v && typeof v === 'object' ? Object.keys(v) : [];
      const key = keys[pick % Math.max(keys.length, 1)] ?? 'hotelId';
      const extra = `${JSON.stringify(key)}:${JSON.stringify(hostile) ?? 'null'}`;
      return {
        body: text.startsWith('{') && text.length > 2 ? `${text.slice(0, -1)},${extra}}` : `{${extra}}`,
        contentType: json,
      };
    }),
    // Prototype pollution in the raw text (a serialiser would drop __proto__).
    fc.tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype')).map(([v, key]) => {
      const text = JSON.stringify(v) ?? '{}';
      const inner = text.startsWith('{') && text.length > 2 ? text.slice(1) : '}';
      const payload = key === 'constructor' ? '{"prototype":{"polluted":true}}' : '{"polluted":true}';
      return { body: `{"${key}":${payload},${inner}`, contentType: json };
    }),
    // Truncated JSON.
    fc.tuple(valid, fc.nat()).map(([v, cut]) => {
      const text = JSON.stringify(v) ?? '{}';
      return { body: text.slice(0, cut % Math.max(text.length, 1)), contentType: json };
    }),
    // Bytes that are not UTF-8.
    fc.tuple(valid, fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([v, bytes]) => {
      const text = JSON.stringify(v) ?? '{}';
      const at = Math.max(1, Math.floor(text.length / 2));
      return {
        body: Buffer.concat([
          Buffer.from(text.slice(0, at)),
          Buffer.from([0xff, 0xfe, 0xc3, ...bytes]),
          Buffer.from(text.slice(at)),
        ]),
        contentType: json,
      };
    }),
    // Valid JSON that is not an object, and lookalikes.
    fc
      .constantFrom(
        '[]',
        'null',
        '0',
        '"text"',
        'true',
        '{}',
        '{"":""}',
        '\uFEFF{}',
        'NaN',
        '{"a":1}{"b":2}',
        '{,}',
        '{"a":}',
      )
      .map((body) => ({ body, contentType: json })),
    // Deep nesting in raw text.
    fc
      .integer({ min: 100, max: 50_000 })
      .map((depth) => ({ body: `${'['.repeat(depth)}${']'.repeat(depth)}`, contentType: json })),
    fc.integer({ min: 50, max: 5000 }).map((depth) => ({
      body: `{"hotelId":${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}}`,
      contentType: json,
    })),
    // A valid body under a wrong or missing content type.
    fc
      .tuple(valid, fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }))
      .map(([v, contentType]) => ({
        body: JSON.stringify(v) ?? '{}',
        ...(contentType ? { contentType } : {}),
      })),
    // Long strings, in and out of fields.
    fc
      .integer({ min: 10_000, max: 200_000 })
      .map((n) => ({ body: JSON.stringify({ hotelId: 'h'.repeat(n) }), contentType: json })),
    fc.string({ unit: 'binary', maxLength: 200 }).map((body) => ({ body, contentType: json })),
  );
}

/** Rarely: a body over the 1 MiB limit (413); built once, it is large. */
export const OVERSIZED = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) });

/**
 * A header value over Node's 16 KiB limit on the request line plus headers. Over a real socket the
 * HTTP parser answers 431 before any route (test/hardening/http-parser-errors.test.ts); through
 * `inject`, which has no parser, the app itself must survive it.
 */
export const overLongHeaderValue = fc
  .tuple(fc.integer({ min: 16 * 1024 + 1, max: 24 * 1024 }), fc.constantFrom('a', '%', ' ', ','))
  .map(([length, unit]) => `x${unit.repeat(length)}`);

export const hostileHeaderValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'Bearer',
    'Bearer ',
    'Bearer  x',
    'Basic dXNlcjpwYXNz',
    'bearer rat_',
    '"1"',
    'W/"1"',
    '*',
    '"999999999999"',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 300 }),
  fc.string({ minLength: 256, maxLength: 2000, unit: 'grapheme-ascii' }),
  overLongHeaderValue,
);

export const clientAddress = fc
  .tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
  .map((parts) => parts.join('.'));

/** A path segment: mostly encoded text, sometimes the raw oddities a router must survive. */
export const hostileSegment = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }).map(encodeURIComponent),
  fc.string({ minLength: 33, maxLength: 600, unit: 'grapheme-ascii' }).map(encodeURIComponent),
  fc.constantFrom(
    '%',
    '%zz',
    '%00',
    '%E0%A4%A',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    'R7K3M9Q2X',
    'r7k3m9q2x',
    'cks_',
    'cks_x',
    ' ',
    '%20',
    'ILOU0000',
    '__proto__',
    'constructor',
  ),
);

/** Where a request goes: its URL and the headers that belong with it (a token for that reservation). */
export type Target = { url: string; headers: Record<string, string> };

/** Requests for one endpoint: one third valid, one third near-valid, one third hostile. */
export function endpointRequests(spec: {
  method: string;
  target: fc.Arbitrary<Target>;
  /** The endpoint's path with its parameter replaced (endpoints with a path parameter). */
  withParam?: (segment: string) => string;
  body?: fc.Arbitrary<unknown>;
}): fc.Arbitrary<FuzzRequest> {
  const { method, target, body } = spec;
  const valid = fc
    .record({ target, payload: body ?? fc.constant(undefined), remoteAddress: clientAddress })
    .map(({ target: t, ...r }): FuzzRequest => ({ method, ...t, ...r, kind: 'valid' }));

  const oddUrl = spec.withParam
    ? hostileSegment.map(spec.withParam)
    : fc
        .tuple(target, fc.constantFrom('/', '//', '/.', '?', '#x', '?__proto__[polluted]=1', '%2F'))
        .map(([t, tail]) => `${t.url}${tail}`);
  const near = fc
    .record({
      target,
      url: fc.option(oddUrl, { freq: 4, nil: undefined }),
      header: fc.option(
        fc.tuple(
          fc.constantFrom('authorization', 'if-match', 'idempotency-key', 'x-request-id', 'accept'),
          hostileHeaderValue,
        ),
        { freq: 3, nil: undefined },
      ),
      payload: body
        ? fc.oneof({ weight: 4, arbitrary: nearValid(body) }, { weight: 1, arbitrary: body })
        : fc.constant(undefined),
      remoteAddress: clientAddress,
    })
    .map(
      ({ target: t, url, header, payload, remoteAddress }): FuzzRequest => ({
        kind: 'near-valid',
        method,
        url: url ?? t.url,
        headers: header ? { ...t.headers, [header[0]]: header[1] } : t.headers,
        payload,
        remoteAddress,
      }),
    );

  const hostile = fc
    .record({
      target,
      query: fc.boolean(),
      raw: hostileBody(body ?? fc.constant({})),
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(method) },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'GET', 'POST', 'PATCH') },
      ),
      oversized: fc.nat(199).map((n) => n === 0),
      remoteAddress: clientAddress,
    })
    .map(({ target: t, query, raw, oversized, method: m, remoteAddress }): FuzzRequest => {
      const payload = oversized ? OVERSIZED : raw.body;
      const contentType = oversized ? 'application/json' : raw.contentType;
      const sendsBody = m !== 'GET';
      return {
        kind: 'hostile',
        method: m,
        url: query ? `${t.url}?${'q=1&'.repeat(20)}` : t.url,
        headers: { ...t.headers, ...(contentType && sendsBody ? { 'content-type': contentType } : {}) },
        ...(sendsBody ? { payload } : {}),
        remoteAddress,
      };
    });
  return fc.oneof(valid, near, hostile);
}

/** Sends one generated request; any JS value the generator made for the body is sent as JSON text. */
export function send(t: TestApp, req: FuzzRequest) {
  const headers = { ...req.headers };
  let payload: string | Buffer | undefined;
  if (req.payload !== undefined) {
    if (typeof req.payload === 'string' || Buffer.isBuffer(req.payload)) payload = req.payload;
    else {
      payload = JSON.stringify(req.payload) ?? 'null';
      headers['content-type'] ??= 'application/json';
    }
  }
  return t.inject({
    method: req.method as 'POST',
    url: req.url,
    headers,
    remoteAddress: req.remoteAddress,
    ...(payload !== undefined ? { payload } : {}),
  });
}

/** The response rules every request must meet, whatever was sent. */
export function checkResponse(
  req: FuzzRequest,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
) {
  const show = () =>
    `${req.kind} ${req.method} ${req.url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  assert.ok(res.statusCode < 500, `no 5xx: ${show()}`);
  if (res.statusCode >= 400) {
    assert.match(
      String(res.headers['content-type']),
      /^application\/problem\+json/,
      `problem+json: ${show()}`,
    );
    const problem = JSON.parse(res.body) as {
      code: ProblemCode;
      status: number;
      type: string;
      title: string;
      detail: string;
      requestId: string;
    };
    assert.ok(problem.code in PROBLEMS, `known code: ${show()}`);
    assert.equal(PROBLEMS[problem.code].status, res.statusCode, `code matches status: ${show()}`);
    assert.equal(problem.status, res.statusCode);
    assert.equal(typeof problem.detail, 'string');
    // A replay repeats the first response's body exactly, so it names the first request's id.
    if (res.headers['idempotent-replayed'] === 'true') assert.equal(typeof problem.requestId, 'string');
    else assert.equal(problem.requestId, res.headers['x-request-id']);
  } else if (res.statusCode !== 204 && res.statusCode !== 304) {
    assert.match(String(res.headers['content-type']), /^application\/json/, `JSON: ${show()}`);
    JSON.parse(res.body);
  }
}

export interface FuzzStats {
  sent: number;
  byKind: Record<string, number>;
  byStatus: Record<number, number>;
}

/**
 * Runs `numRuns` generated requests through the app; after each rejected one the state snapshot
 * must equal the one before it.
 */
export async function fuzzEndpoint(
  t: TestApp,
  arbitrary: fc.Arbitrary<FuzzRequest>,
  numRuns: number,
  stats: FuzzStats,
  seed?: number,
) {
  let reference = await fingerprint(t.db);
  await fc.assert(
    fc.asyncProperty(arbitrary, async (req) => {
      const res = await send(t, req);
      stats.sent++;
      stats.byKind[req.kind] = (stats.byKind[req.kind] ?? 0) + 1;
      stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
      checkResponse(req, res);
      // Nothing committed since the reference was taken: the state is still the reference's.
      if (!(await committedSince(t.db, reference.since))) return;
      const now = await fingerprint(t.db);
      if (res.statusCode >= 400) {
        assert.deepEqual(
          now.state,
          reference.state,
          `a rejected request changed state: ${req.kind} ${req.method} ${req.url} → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      }
      reference = now;
    }),
    // A failure prints its seed; FUZZ_SEED=<seed> replays that run.
    {
      numRuns,
      endOnFailure: true,
      ...(seed !== undefined ? { seed } : FUZZ_SEED ? { seed: Number(FUZZ_SEED) } : {}),
    },
  );
}

export function newStats(): FuzzStats {
  return { sent: 0, byKind: {}, byStatus: {} };
}
