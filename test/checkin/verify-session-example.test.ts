import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { bookStay, openedSession, startCheckinApp } from './helpers.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/verify-session.mjs', import.meta.url));

/** Runs the README's example as a user would (a separate process over a real port); never throws. */
function runExample(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [EXAMPLE, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('examples/verify-session.mjs (the README’s verification example)', () => {
  let t: TestApp;
  let hotel: HotelDef;
  let origin: string;
  before(async () => {
    ({ t, hotel } = await startCheckinApp({ env: { PUBLIC_BASE_URL: 'https://checkin.hotel.example' } }));
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('verifies a real session’s signature against the service’s JWKS and prints it', async () => {
    const { id } = await openedSession(t, await bookStay(t, hotel));
    const run = await runExample(origin, id, 'https://checkin.hotel.example');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), `${id} open null`);
  });

  it('refuses a signature from another issuer, and says why', async () => {
    const { id } = await openedSession(t, await bookStay(t, hotel));
    const run = await runExample(origin, id); // the issuer defaults to the base URL: not this service's
    assert.equal(run.code, 1);
    assert.match(run.stderr, /not verified: .*iss/);
  });

  it('reports an unknown session with the service’s problem code', async () => {
    const run = await runExample(origin, 'cks_unknown', 'https://checkin.hotel.example');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /not verified: 404 not_found/);
  });

  it('prints its usage without arguments', async () => {
    const run = await runExample();
    assert.equal(run.code, 2);
    assert.match(run.stderr, /usage: node examples\/verify-session\.mjs <base-url> <session-id>/);
  });
});
