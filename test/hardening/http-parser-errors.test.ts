/**
 * Errors of Node's HTTP parser (issue 8, item 5): a URL or header block over 16 KiB, or bytes that
 * are not HTTP, never reach a route or the error handler, yet are answered as problem+json with a
 * request id, like every other error. Over a real socket: `inject` bypasses the parser.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { overLongHeaderValue } from './support/fuzz-harness.ts';

/** Sends raw bytes and returns the raw response (the server closes the connection after it). */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      response += chunk;
    });
    // The server may reset the connection while we still send: what arrived is the answer.
    socket.on('error', (error) => (response ? resolve(response) : reject(error)));
    socket.on('close', () => resolve(response));
    socket.end(request);
  });
}

function parse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Map(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

function assertProblem(raw: string, status: number, code: string) {
  const response = parse(raw);
  assert.equal(response.status, status, raw.slice(0, 300));
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  assert.equal(response.body.status, status);
  assert.equal(response.body.code, code);
  assert.equal(response.body.type, `https://innkeep.dev/problems/${code.replaceAll('_', '-')}`);
  assert.equal(typeof response.body.title, 'string');
  assert.equal(typeof response.body.detail, 'string');
  assert.match(response.body.requestId, /^[0-9a-f-]{36}$/);
  assert.equal(response.headers.get('x-request-id'), response.body.requestId);
  return response;
}

describe('errors of the HTTP parser are problem+json with a request id', () => {
  let t: TestApp;
  let port = 0;
  before(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  after(() => t.close());

  it('answers 431 headers_too_large for a URL over 16 KiB', async () => {
    const url = `/api/v1/booking/reservations/${'A'.repeat(17 * 1024)}`;
    assertProblem(await exchange(port, `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'headers_too_large');
  });

  it('answers 431 headers_too_large for a header block over 16 KiB', async () => {
    const headers = Array.from({ length: 40 }, (_, i) => `X-Filler-${i}: ${'b'.repeat(500)}\r\n`).join('');
    const raw = await exchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
    assertProblem(raw, 431, 'headers_too_large');
  });

  it('answers 400 validation_error for bytes that are not HTTP', async () => {
    const response = assertProblem(await exchange(port, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'validation_error');
    assert.deepEqual(response.body.errors, [{ path: '/', message: 'is not valid HTTP' }]);
  });

  it('the same through fetch: a header over the limit', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, {
      headers: { 'x-filler': 'c'.repeat(20 * 1024) },
    });
    assert.equal(response.status, 431);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    const body = (await response.json()) as { code: string; requestId: string };
    assert.equal(body.code, 'headers_too_large');
    assert.equal(response.headers.get('x-request-id'), body.requestId);
  });

  it('answers 431 for any over-long header the fuzz generators make', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('authorization', 'idempotency-key', 'x-request-id', 'cookie', 'x-anything'),
        overLongHeaderValue,
        async (name, value) => {
          const raw = await exchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${name}: ${value}\r\n\r\n`);
          assertProblem(raw, 431, 'headers_too_large');
        },
      ),
      { numRuns: 15 },
    );
  });

  it('keeps serving afterwards', async () => {
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  });
});
