import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger, maskSecrets } from './logger.ts';

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

  it('masks the whole path segment after a secret prefix, whatever it holds (issue 32.7)', () => {
    for (const [logged, masked] of [
      [`/checkin/sessions/cks_abcd%2F${rest}`, '/checkin/sessions/cks_abcd…'],
      [`/checkin/sessions/cks_ab%00${rest}/steps/x`, '/checkin/sessions/cks_ab…/steps/x'],
      [`/checkin/sessions/cks_%2F%2F${rest}?lang=en`, '/checkin/sessions/cks_…?lang=en'],
      [`/checkin/sessions/cks_abcd${rest}%2e%2e;x=\u0000y`, '/checkin/sessions/cks_abcd…'],
      [
        `/booking/reservations/X?token=rat_ab!c${rest}&lang=en`,
        '/booking/reservations/X?token=rat_ab…&lang=en',
      ],
      [`key ik_abcd\u0000${rest} revoked`, 'key ik_abcd… revoked'],
    ]) {
      assert.equal(maskSecrets(logged as string), masked, logged);
      assert.equal(maskSecrets(masked as string), masked, `masking ${masked} again`);
    }
  });

  it('leaves escapes of reserved characters as they are, and stops on pathological input', () => {
    assert.equal(maskSecrets('/a%2Fb%20c%252F'), '/a%2Fb%20c%252F');
    const deep = `/s/%${'25'.repeat(1000)}63ks_${rest}`;
    assert.equal(typeof maskSecrets(deep), 'string');
  });

  it('masks secrets in the logged URL and in a logged error, odd forms included', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info({ req: { method: 'GET', url: `/checkin/sessions/cks_ab%2F${rest}` } }, 'request');
    logger.error({ err: new Error(`Route GET:/checkin/sessions/cks_abcd%00${rest} not found`) }, 'failed');
    const logged = lines.join('');
    assert.doesNotMatch(logged, new RegExp(rest.slice(4)), logged);
    assert.match(logged, /cks_ab…/);
    assert.match(logged, /cks_abcd…/);
  });
});
