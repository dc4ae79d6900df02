import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { catalogue } from './catalog.fixtures.ts';
import { CatalogError, loadCatalogFile } from './catalog.validate.ts';

const demoPath = fileURLToPath(new URL('../../catalog/demo.json', import.meta.url));

describe('loadCatalogFile', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'innkeep-catalog-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a missing file', async () => {
    const path = join(dir, 'missing.json');
    await assert.rejects(loadCatalogFile(path), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.match(error.message, /^Cannot read catalogue file .*missing\.json: /);
      return true;
    });
  });

  it('names a file that is not JSON', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{ "hotels": [ }');
    await assert.rejects(loadCatalogFile(path), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.match(error.message, /^Catalogue file .*broken\.json is not valid JSON: /);
      return true;
    });
  });

  it('reads a file saved with a byte-order mark', async () => {
    const path = join(dir, 'bom.json');
    await writeFile(path, `\uFEFF${JSON.stringify(catalogue())}`);
    assert.equal((await loadCatalogFile(path)).hotels[0]?.id, 'harbour-view');
  });

  it('names a file that is not a valid catalogue', async () => {
    const path = join(dir, 'invalid.json');
    const json = catalogue();
    json.hotels[0].roomTypes[1].count = -1;
    await writeFile(path, JSON.stringify(json));
    await assert.rejects(loadCatalogFile(path), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.equal(
        error.message,
        `Catalogue file ${path} is invalid (1 problem):\nhotels/0/roomTypes/1/count: must be >= 0`,
      );
      assert.deepEqual(error.problems, ['hotels/0/roomTypes/1/count: must be >= 0']);
      return true;
    });
  });
});

describe('the bundled demo catalogue', () => {
  it('loads without warnings', async () => {
    const { hotels, warnings } = await loadCatalogFile(demoPath);
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      hotels.map((h) => [
        h.id,
        h.name,
        h.timezone,
        h.currency,
        h.checkInTime,
        h.checkOutTime,
        h.maxDaysBeforeArrival,
      ]),
      [['harbour-view', 'Harbour View', 'Europe/Lisbon', 'EUR', '15:00', '11:00', 500]],
    );
    const hotel = hotels[0];
    assert.ok(hotel);
    assert.ok(hotel.roomTypes.length >= 4);
    assert.ok(hotel.ratePlans.some((rp) => rp.refundable && rp.prepayment === 'none'));
    assert.ok(hotel.ratePlans.some((rp) => !rp.refundable && rp.prepayment === 'full'));
    assert.ok(hotel.ratePlans.some((rp) => hotel.roomTypes.some((rt) => !(rt.id in rp.prices))));
  });
});
