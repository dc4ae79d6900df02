/**
 * Every feature pays its way (issue 36, item 4): search and booking on a service with every
 * feature in use — guest messages sent to an SMTP server, a webhook endpoint subscribed to
 * `reservation.*`, 10 iCal imports of 100 events each, and the `flex` plan replaced by an AlpineBits
 * RatePlans message — next to the same service with none of them (messages queued, never sent; no
 * endpoint, import or AlpineBits plan), alternated round by round in one run on the same machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { dayFromNow, HOTEL_ID, searchStay, writeCatalog } from './catalog.ts';
import { feedServer } from './ical-feeds.ts';
import { type LoadResult, load, meanOf } from './load.ts';
import { operatorKey } from './operator-key.ts';
import { createDatabase, newKey, type Proc, type ServiceOptions, startService } from './processes.ts';
import { makeQuotes } from './quotes.ts';
import { smtpSink } from './smtp-sink.ts';
import { subscribeWebhook } from './webhook-receiver.ts';

const TYPES = 4;
const IMPORTS = 10;

export interface FeaturesResult {
  variant: string;
  scenario: 'search' | 'reservation';
  plain: LoadResult;
  featured: LoadResult;
  note: string;
}

export interface FeaturesSettings {
  duration: number;
  warmup: number;
  rounds: number;
  connections: number;
  reservationsPerRound: number;
  /** Profile the featured service with `node --cpu-prof` into this directory (BENCH_CPU_PROF_DIR). */
  cpuProfDir?: string;
}

/**
 * An AlpineBits RatePlans message (API.md 11.3) that replaces the catalogue's `flex` plan: per-room
 * rates by number of adults, children by age band, for every room type over the next 500 nights,
 * so search, quote and booking price `flex` from the message's plan.
 */
export function ratePlans(): string {
  const start = dayFromNow(0);
  const end = dayFromNow(500);
  const rates = Array.from(
    { length: TYPES },
    (_, i) => `<Rate InvTypeCode="rt${i}" Start="${start}" End="${end}">
        <BaseByGuestAmts>
          <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="${90 + i * 5}"/>
          <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="${100 + i * 5}"/>
        </BaseByGuestAmts>
        <AdditionalGuestAmounts>
          <AdditionalGuestAmount AgeQualifyingCode="10" Amount="30"/>
          <AdditionalGuestAmount AgeQualifyingCode="8" MaxAge="6" Amount="0"/>
          <AdditionalGuestAmount AgeQualifyingCode="8" MinAge="6" MaxAge="18" Amount="15"/>
        </AdditionalGuestAmounts>
      </Rate>`,
  ).join('\n      ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${HOTEL_ID}">
    <RatePlan RatePlanNotifType="New" CurrencyCode="EUR" RatePlanCode="flex">
      <Rates>
        <Rate RateTimeUnit="Day" UnitMultiplier="1">
          <BaseByGuestAmts><BaseByGuestAmt Type="7"/></BaseByGuestAmts>
          <MealsIncluded MealPlanIndicator="true" MealPlanCodes="14"/>
        </Rate>
      ${rates}
      </Rates>
      <Description Name="title"><Text TextFormat="PlainText" Language="en">Flexible</Text></Description>
    </RatePlan>
  </RatePlans>
</OTA_HotelRatePlanNotifRQ>`;
}

export async function sendRatePlans(url: string, key: string): Promise<void> {
  const form = new FormData();
  form.set('action', 'OTA_HotelRatePlanNotif:RatePlans');
  form.set('request', ratePlans());
  const res = await fetch(`${url}/api/v1/alpinebits`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`bench:${key}`).toString('base64')}`,
      'x-alpinebits-clientprotocolversion': '2022-10',
      'x-alpinebits-clientid': 'bench-pms',
    },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('<Success')) throw new Error(`RatePlans refused: ${text}`);
}

async function addImports(url: string, key: string, feedBase: string): Promise<void> {
  for (let k = 0; k < IMPORTS; k++) {
    const res = await fetch(`${url}/api/v1/operator/hotels/${HOTEL_ID}/ical-imports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        roomTypeId: `rt${k % TYPES}`,
        url: `${feedBase}/feed-${k}.ics`,
        name: `platform ${k}`,
      }),
    });
    const body = (await res.json()) as { lastFetch?: { status?: string } };
    if (res.status !== 201 || body.lastFetch?.status !== 'ok')
      throw new Error(`iCal import not created: ${JSON.stringify(body)}`);
  }
}

/**
 * Pairs of services per variant (BENCH_FEATURE_PAIRS, 2): a Node process of one build may run 20 %
 * faster or slower than another of the same build (bench/NOTES.md, 2026-11-28 (7)), so one plain
 * and one featured process would measure the processes as much as the features.
 */
const PAIRS = Number(process.env.BENCH_FEATURE_PAIRS ?? 2);

/**
 * Plain and featured services of one variant (`embedded` or `pg1`), `PAIRS` of each, search and
 * booking alternated round by round (plain 1, featured 1, plain 2, featured 2, …).
 */
export async function featuresVariant(
  variant: 'embedded' | 'pg1',
  settings: FeaturesSettings,
  log: (msg: string) => void,
): Promise<FeaturesResult[]> {
  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-features-'));
  const catalogFile = await writeCatalog(dir, TYPES);
  const databases: Array<Awaited<ReturnType<typeof createDatabase>>> = [];
  if (variant === 'pg1') for (let i = 0; i < 2 * PAIRS; i++) databases.push(await createDatabase());
  const sink = await smtpSink();
  const feeds = await feedServer();
  const procs: Proc[] = [];
  const hooks: Array<Awaited<ReturnType<typeof subscribeWebhook>>> = [];
  try {
    const options = (name: string, i: number, env: Record<string, string>): ServiceOptions => ({
      catalogFile,
      dataDir: join(dir, name),
      key: newKey(),
      ...(databases[i] ? { databaseUrl: databases[i].url } : {}),
      extraEnv: env,
    });
    const pairs: Array<{ plain: Proc; featured: Proc }> = [];
    for (let k = 0; k < PAIRS; k++) {
      const plainOptions = options(`plain-${k}`, 2 * k, { MAIL_WORKER: 'false' });
      const featuredOptions = options(`featured-${k}`, 2 * k + 1, {
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      if (settings.cpuProfDir)
        featuredOptions.nodeFlags = ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfDir}`];
      const plain = await startService(plainOptions);
      procs.push(plain);
      const featured = await startService(featuredOptions);
      procs.push(featured);
      const key = operatorKey(featuredOptions, ['webhooks:write', 'inventory:write', 'reservations:read']);
      hooks.push(await subscribeWebhook(featured.url, key));
      await addImports(featured.url, key, feeds.base);
      await sendRatePlans(featured.url, key);
      pairs.push({ plain, featured });
    }
    log(
      `features ${variant}: ${PAIRS} plain and ${PAIRS} featured services up (webhook, ${IMPORTS} iCal imports, AlpineBits flex)`,
    );

    const searchSpec = (duration: number) => ({
      method: 'POST' as const,
      path: () => '/api/v1/booking/availability/search',
      body: (i: number) => JSON.stringify(searchStay(i)),
      connections: settings.connections,
      duration,
    });
    const run = Math.random().toString(36).slice(2, 8);
    let guest = 0;
    const book = async (url: string, amount: number) => {
      const ids = await makeQuotes([url], amount, TYPES);
      let next = 0;
      return load([url], {
        method: 'POST',
        path: () => '/api/v1/booking/reservations',
        body: () =>
          JSON.stringify({
            quoteId: ids[next++ % ids.length],
            guest: { firstName: 'Ana', lastName: 'Silva', email: `ana.${run}.${guest++}@example.com` },
          }),
        connections: settings.connections,
        amount: ids.length,
      });
    };
    if (settings.warmup > 0) for (const p of procs) await load([p.url], searchSpec(settings.warmup));
    const searches = { plain: [] as LoadResult[], featured: [] as LoadResult[] };
    const bookings = { plain: [] as LoadResult[], featured: [] as LoadResult[] };
    for (let round = 0; round < settings.rounds; round++)
      for (const { plain, featured } of pairs) {
        searches.plain.push(await load([plain.url], searchSpec(settings.duration)));
        searches.featured.push(await load([featured.url], searchSpec(settings.duration)));
      }
    const amount = Math.min(settings.reservationsPerRound, 600);
    for (let round = 0; round < settings.rounds; round++)
      for (const { plain, featured } of pairs) {
        bookings.plain.push(await book(plain.url, amount));
        bookings.featured.push(await book(featured.url, amount));
      }
    const delivered = hooks.reduce((n, h) => n + h.delivered(), 0);
    const note = `${PAIRS} pairs of processes; ${delivered} webhook deliveries and ${sink.accepted()} guest messages received by the end`;
    return [
      {
        variant,
        scenario: 'search',
        plain: meanOf(searches.plain),
        featured: meanOf(searches.featured),
        note,
      },
      {
        variant,
        scenario: 'reservation',
        plain: meanOf(bookings.plain),
        featured: meanOf(bookings.featured),
        note,
      },
    ];
  } finally {
    for (const h of hooks) await h.close().catch(() => {});
    await Promise.all(procs.map((p) => p.stop()));
    feeds.close();
    sink.close();
    for (const db of databases) await db.drop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}
