import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickLanguage } from '../../src/pages/language.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

// How the service serves the pages: shells, language, CSP, caching and compression.

const hotel = makeHotel();

describe('pages over HTTP', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [hotel] });
  });
  after(() => t.close());

  it('serves each page as an HTML shell under a strict CSP, with no Referer', async () => {
    for (const url of [
      `/book/${hotel.id}`,
      '/checkin',
      '/checkin/cks_0123456789abcdefghijklmnopqrstuv',
      '/desk',
    ]) {
      const res = await t.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /style-src 'self'(;|$)/);
      assert.match(csp, /img-src 'self' data: blob:/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https:/);
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.match(res.body, /<meta name="referrer" content="no-referrer">/);
      assert.doesNotMatch(res.body, /<script>|<style|style="/, 'no inline script or style');
    }
    // The session id in a page URL is a bearer secret: logged only as a prefix.
    assert.equal(t.logs.join('').includes('cks_0123456789abcdefghijklmnopqrstuv'), false);
  });

  it('keeps the API under its own, stricter CSP', async () => {
    const res = await t.inject({ method: 'GET', url: '/healthz' });
    assert.equal(
      res.headers['content-security-policy'],
      "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'",
    );
  });

  it('sets <html lang> from ?lang=, else from Accept-Language, else English', async () => {
    const lang = async (url: string, acceptLanguage?: string) => {
      const res = await t.inject({
        method: 'GET',
        url,
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
      return /<html lang="([a-z]+)">/.exec(res.body)?.[1];
    };
    assert.equal(await lang('/checkin'), 'en');
    assert.equal(await lang('/checkin', 'pt-BR,pt;q=0.9,en;q=0.5'), 'pt');
    assert.equal(await lang('/checkin', 'de-DE,es;q=0.8,en;q=0.5'), 'es');
    assert.equal(await lang('/checkin?lang=pt', 'es'), 'pt');
    assert.equal(await lang('/checkin?lang=xx', 'es'), 'es');
    assert.equal(pickLanguage(undefined, 'en;q=0.2, es;q=0.9'), 'es');
    assert.equal(pickLanguage(undefined, 'fr, de'), 'en');
  });

  it('answers an unknown hotel with a friendly 404 page in the guest language', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/book/no-such-hotel',
      headers: { 'accept-language': 'es' },
    });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.body, /<h1>Hotel no encontrado<\/h1>/);
  });

  it('serves assets with an ETag (304 when unchanged) and Cache-Control', async () => {
    const res = await t.inject({ method: 'GET', url: '/assets/book/book.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(String(res.headers['cache-control']), /must-revalidate/);
    const etag = String(res.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await t.inject({
      method: 'GET',
      url: '/assets/book/book.js',
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const missing = await t.inject({ method: 'GET', url: '/assets/../src/app.ts' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
  });

  it('compresses assets for clients that accept it (brotli, gzip)', async () => {
    const plain = await t.inject({ method: 'GET', url: '/assets/i18n/en.json' });
    const br = await t.inject({
      method: 'GET',
      url: '/assets/i18n/en.json',
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    const gz = await t.inject({
      method: 'GET',
      url: '/assets/shared/style.css',
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gz.rawPayload).length > gz.rawPayload.length);
    assert.equal(plain.headers['content-encoding'], undefined);
    // Compression is scoped to the pages: API answers are unchanged.
    const api = await t.inject({
      method: 'GET',
      url: '/.well-known/jwks.json',
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(api.headers['content-encoding'], undefined);
  });

  it('has the same text keys in every language catalogue', () => {
    const keys = (lang: string) =>
      Object.keys(
        JSON.parse(readFileSync(new URL(`../../web/i18n/${lang}.json`, import.meta.url), 'utf8')),
      ).sort();
    assert.deepEqual(keys('es'), keys('en'));
    assert.deepEqual(keys('pt'), keys('en'));
  });
});
