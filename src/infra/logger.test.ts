import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskSecrets } from './logger.ts';

describe('maskSecrets', () => {
  const rest = 'abcd0123456789efghjkmnpqrstv';

  it('masks every secret this service issues or holds, keeping a prefix to correlate', () => {
    for (const prefix of ['cks', 'rat', 'ik', 'whsec', 'sk_live', 'sk_test', 'rk_live']) {
      assert.equal(maskSecrets(`secret ${prefix}_${rest} here`), `secret ${prefix}_abcd… here`, prefix);
    }
  });

  it('decodes percent-encoding until it is stable before masking, however often it was applied', () => {
    for (const encoded of [
      `/checkin/sessions/%63ks_${rest}`,
      `/checkin/sessions/%2563ks_${rest}`,
      `/checkin/sessions/%25252563ks_${rest}`,
      `/checkin/sessions/cks%255F${rest}`,
      `/checkin/sessions/%25%36%33ks_${rest}`,
    ]) {
      assert.equal(maskSecrets(encoded), '/checkin/sessions/cks_abcd…', encoded);
    }
  });

  it('leaves escapes of reserved characters as they are, and stops on pathological input', () => {
    assert.equal(maskSecrets('/a%2Fb%20c%252F'), '/a%2Fb%20c%252F');
    const deep = `/s/%${'25'.repeat(1000)}63ks_${rest}`;
    assert.equal(typeof maskSecrets(deep), 'string');
  });
});
