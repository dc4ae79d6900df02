import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { failureClass, networkFailure } from './network-failure.ts';

/** The error a real request to `url` ends with. */
function failureOf(url: string): Promise<Error> {
  return new Promise((resolve) => {
    const client = url.startsWith('https:') ? https : http;
    const request = client.get(url, { timeout: 5_000 }, (response) => {
      response.resume();
      resolve(new Error(`answered ${response.statusCode}`));
    });
    request.on('error', resolve);
  });
}

describe('networkFailure', () => {
  it('classifies real socket errors by their code and drops the message that names the address', async () => {
    const server = http.createServer((_req, res) => res.end('plain'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const tls = await failureOf(`https://127.0.0.1:${port}/`);
      assert.equal(failureClass(tls), 'tls');
      assert.match(networkFailure(tls), /^tls: no secure connection \([A-Z_]+\)$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const refused = await failureOf(`http://127.0.0.1:${port}/`);
    assert.match(refused.message, /127\.0\.0\.1/, 'the message names the address');
    assert.equal(networkFailure(refused), 'connection refused (ECONNREFUSED)');
  });

  it('knows each class by code, and keeps nothing but a well-formed code', () => {
    const cases: Array<[unknown, string]> = [
      [{ code: 'ENOTFOUND' }, 'dns: the host does not resolve (ENOTFOUND)'],
      [{ code: 'EAI_AGAIN' }, 'dns: the host does not resolve (EAI_AGAIN)'],
      [{ code: 'ECONNRESET' }, 'connection reset (ECONNRESET)'],
      [{ code: 'ETIMEDOUT' }, 'timeout (ETIMEDOUT)'],
      [{ code: 'EHOSTUNREACH' }, 'network unreachable (EHOSTUNREACH)'],
      [{ code: 'CERT_HAS_EXPIRED' }, 'tls: no secure connection (CERT_HAS_EXPIRED)'],
      [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls: no secure connection (ERR_TLS_CERT_ALTNAME_INVALID)'],
      [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls: no secure connection (DEPTH_ZERO_SELF_SIGNED_CERT)'],
      [{ code: 'ESOMETHINGNEW' }, 'network error (ESOMETHINGNEW)'],
      [{ code: 'connect to 10.0.0.7' }, 'network error'],
      [new Error("Host: intranet. is not in the cert's altnames: IP Address:10.1.2.3"), 'network error'],
      [null, 'network error'],
      ['a string', 'network error'],
    ];
    for (const [error, reason] of cases) assert.equal(networkFailure(error), reason, JSON.stringify(error));
  });
});
