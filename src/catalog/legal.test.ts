import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogue, problemsOf } from './catalog.fixtures.ts';
import { parseCatalog } from './catalog.validate.ts';

const legal = {
  name: 'Harbour View SL',
  taxId: 'B12345678',
  address: 'Rua do Cais 1, Lisboa',
  country: 'PT',
};

describe('catalogue legal details (API.md 13)', () => {
  it('is absent unless given, and fills the series and VERI*FACTU defaults', () => {
    assert.equal(parseCatalog(catalogue()).hotels[0]?.legal, undefined);
    const json = catalogue();
    Object.assign(json.hotels[0], { legal });
    assert.deepEqual(parseCatalog(json).hotels[0]?.legal, {
      ...legal,
      invoiceSeries: 'F',
      creditNoteSeries: 'R',
      verifactu: false,
    });
  });

  it('refuses a bad country, tax id, series and the same series twice', () => {
    const json = catalogue();
    Object.assign(json.hotels[0], {
      legal: { ...legal, country: 'Portugal', taxId: ' ', invoiceSeries: 'f 1' },
    });
    const problems = problemsOf(json);
    assert.ok(
      problems.some((p) => p.includes('legal/country')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('legal/taxId')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('legal/invoiceSeries')),
      problems.join('\n'),
    );
    const same = catalogue();
    Object.assign(same.hotels[0], { legal: { ...legal, invoiceSeries: 'A', creditNoteSeries: 'A' } });
    assert.deepEqual(problemsOf(same), ['hotels/0/legal/creditNoteSeries: must differ from invoiceSeries']);
  });
});
