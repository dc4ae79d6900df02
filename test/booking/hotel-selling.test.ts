import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

// API.md 9.1: descriptions, photos, beds, size, amenities, address and location in the hotel answer,
// texts in the caller's language; photo files served in sizes, cached for ever, never enlarged.

const dir = mkdtempSync(path.join(tmpdir(), 'innkeep-selling-'));

/** A real image, `width` × `height`, with some detail so the encoders have work to do. */
async function writeImage(name: string, width: number, height: number): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#2a6f97"/><stop offset="1" stop-color="#f4a261"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fff8"/></svg>`;
  await sharp(Buffer.from(svg))
    .jpeg()
    .toFile(path.join(dir, 'photos', name));
}

function writeCatalog(file: string, hotel: HotelDef): string {
  const full = path.join(dir, file);
  writeFileSync(full, JSON.stringify({ hotels: [hotel] }));
  return full;
}

function sellingHotel(photos: NonNullable<HotelDef['photos']>): HotelDef {
  const base = makeHotel();
  return {
    ...base,
    name: { en: 'Harbour View', pt: 'Vista do Porto' },
    description: { en: 'By the water.', es: 'Junto al agua.', pt: 'Junto à água.' },
    address: 'Rua do Cais 12, 1200-001 Lisboa, Portugal',
    location: { lat: 38.7071, lon: -9.1359 },
    photos,
    roomTypes: base.roomTypes.map((rt, i) =>
      i === 0
        ? {
            ...rt,
            description: { en: 'Quiet, over the garden.', es: 'Tranquila, sobre el jardín.' },
            photos: [{ file: 'photos/small.jpg', alt: { en: 'The bed', es: 'La cama', pt: 'A cama' } }],
            sizeM2: 22.5,
            beds: [{ type: 'queen', count: 1 }],
            amenities: ['wifi', 'balcony', 'sea_view'],
          }
        : rt,
    ),
  };
}

describe('the hotel answer sells the rooms (API.md 9.1)', () => {
  let t: TestApp;
  let hotelId: string;
  before(async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(dir, 'photos'), { recursive: true });
    await writeImage('big.jpg', 2400, 1600);
    await writeImage('small.jpg', 600, 400);
    const hotel = sellingHotel([
      { file: 'photos/big.jpg', alt: { en: 'The harbour at dusk', pt: 'O porto ao entardecer' } },
      { url: 'https://images.example.com/lobby.jpg' },
    ]);
    hotelId = hotel.id;
    t = await startTestApp({ hotels: [], catalogFile: writeCatalog('catalog.json', hotel) });
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the texts in the caller’s language, and beds, size, amenities, address and location', async () => {
    const res = await t.inject({
      url: `/api/v1/booking/hotels/${hotelId}`,
      headers: { 'accept-language': 'es' },
    });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.description, 'Junto al agua.');
    assert.equal(body.address, 'Rua do Cais 12, 1200-001 Lisboa, Portugal');
    assert.deepEqual(body.location, { lat: 38.7071, lon: -9.1359 });
    const room = body.roomTypes[0];
    assert.equal(room.description, 'Tranquila, sobre el jardín.');
    assert.equal(room.sizeM2, 22.5);
    assert.deepEqual(room.beds, [{ type: 'queen', count: 1 }]);
    assert.deepEqual(room.amenities, ['wifi', 'balcony', 'sea_view']);
    assert.equal(room.photos[0].alt, 'La cama');
    // A language the text is not given in: the plain (English) one.
    const pt = (
      await t.inject({ url: `/api/v1/booking/hotels/${hotelId}`, headers: { 'accept-language': 'pt' } })
    ).json();
    assert.equal(pt.roomTypes[0].description, 'Quiet, over the garden.');
    assert.equal(pt.photos[0].alt, 'O porto ao entardecer');
    // No alt text given: the photo is named by what it shows (the hotel).
    assert.equal(pt.photos[1].alt, 'Vista do Porto');
    // Room types without selling fields answer none of them.
    assert.equal(body.roomTypes[1].photos, undefined);
  });

  it('serves each size in JPEG and WebP, never enlarged, at the width and height the answer gives', async () => {
    const body = (await t.inject({ url: `/api/v1/booking/hotels/${hotelId}` })).json();
    const [big, external] = body.photos;
    assert.deepEqual(external, {
      src: 'https://images.example.com/lobby.jpg',
      srcset: '',
      width: null,
      height: null,
      alt: 'Harbour View',
    });
    assert.match(big.src, /^\/media\/[0-9a-f]{20}-960\.jpg$/);
    assert.equal(big.width, 960);
    assert.equal(big.height, 640);
    const widths = (srcset: string) =>
      srcset.split(', ').map((s) => Number(s.split(' ')[1]?.replace('w', '')));
    assert.deepEqual(widths(big.srcset), [480, 960, 1440, 1920]);
    assert.deepEqual(widths(big.webpSrcset), [480, 960, 1440, 1920]);
    for (const entry of [...big.srcset.split(', '), ...big.webpSrcset.split(', ')]) {
      const [url, w] = entry.split(' ') as [string, string];
      const res = await t.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(res.headers['content-type'], url.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
      const meta = await sharp(res.rawPayload).metadata();
      assert.equal(meta.format, url.endsWith('.webp') ? 'webp' : 'jpeg');
      assert.equal(`${meta.width}w`, w);
      assert.equal(meta.height, Math.round((1600 * meta.width) / 2400));
    }
    // The 600-pixel photo: its own width at most, never enlarged to 960.
    const small = body.roomTypes[0].photos[0];
    assert.deepEqual(widths(small.srcset), [480, 600]);
    assert.equal(small.width, 600);
    assert.equal(small.height, 400);
    const res = await t.inject({ url: small.src });
    assert.equal((await sharp(res.rawPayload).metadata()).width, 600);
    assert.equal((await t.inject({ url: small.src.replace('-600.', '-960.') })).statusCode, 404);
  });

  it('makes a size once: the second answer is the same bytes, from the cache in DATA_DIR', async () => {
    const body = (await t.inject({ url: `/api/v1/booking/hotels/${hotelId}` })).json();
    const url = body.photos[0].srcset.split(', ')[0].split(' ')[0];
    const [first, second] = await Promise.all([t.inject({ url }), t.inject({ url })]);
    assert.deepEqual(first.rawPayload, second.rawPayload);
    const { existsSync } = await import('node:fs');
    assert.ok(existsSync(path.join(t.config.dataDir, 'media', url.slice('/media/'.length))));
  });

  it('answers 404 for a name that is no photo of the catalogue', async () => {
    for (const url of ['/media/0123456789abcdef0123-480.jpg', '/media/../../etc/passwd', '/media/x.png']) {
      const res = await t.inject({ url });
      assert.equal(res.statusCode, 404, url);
    }
  });
});

describe('a catalogue with a bad photo file is refused at start, naming the file', () => {
  it('refuses a missing file and a file that is not an image, naming each', async () => {
    const local = mkdtempSync(path.join(tmpdir(), 'innkeep-selling-bad-'));
    writeFileSync(path.join(local, 'notes.jpg'), 'not an image at all');
    const hotel = sellingHotel([{ file: 'missing.jpg' }, { file: 'notes.jpg' }]);
    hotel.roomTypes = hotel.roomTypes.map((rt) => ({ ...rt, photos: [] }));
    const file = path.join(local, 'catalog.json');
    writeFileSync(file, JSON.stringify({ hotels: [hotel] }));
    try {
      await assert.rejects(startTestApp({ hotels: [], catalogFile: file }), (error: Error) => {
        assert.match(error.message, /hotels\/0\/photos\/0\/file: photo file missing\.jpg .* does not exist/);
        assert.match(error.message, /hotels\/0\/photos\/1\/file: photo file notes\.jpg .* is not an image/);
        return true;
      });
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });

  it('refuses an unknown amenity, bed type or language with the catalogue’s other faults', async () => {
    const local = mkdtempSync(path.join(tmpdir(), 'innkeep-selling-bad-'));
    const hotel = sellingHotel([]);
    const file = path.join(local, 'catalog.json');
    writeFileSync(
      file,
      JSON.stringify({
        hotels: [
          {
            ...hotel,
            description: { fr: 'Au bord de l’eau' },
            roomTypes: [
              {
                ...hotel.roomTypes[0],
                photos: [],
                amenities: ['jacuzzi'],
                beds: [{ type: 'hammock', count: 1 }],
              },
            ],
          },
        ],
      }),
    );
    try {
      await assert.rejects(startTestApp({ hotels: [], catalogFile: file }), (error: Error) => {
        assert.match(error.message, /hotels\/0\/description\/fr/);
        assert.match(error.message, /hotels\/0\/roomTypes\/0\/amenities\/0/);
        assert.match(error.message, /hotels\/0\/roomTypes\/0\/beds\/0\/type/);
        return true;
      });
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });
});
