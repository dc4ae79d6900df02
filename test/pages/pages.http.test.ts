import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickLanguage } from '../../src/pages/pages.plugin.ts';
import { loadStaticAssets } from '../../src/pages/static-assets.ts';
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

  /** The versioned URLs a page shell names: its icon, stylesheet and script. */
  async function shellAssets(url: string) {
    const res = await t.inject({ method: 'GET', url });
    return [...res.body.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
  }

  it('names assets by a content version and lets browsers keep them for a year', async () => {
    const urls = await shellAssets('/checkin');
    assert.equal(urls.length, 3, 'icon, stylesheet, script');
    for (const url of urls) {
      assert.match(url, /^\/assets\/v-[0-9a-f]{12}\/(shared|checkin)\/[\w-]+\.(svg|css|js)$/);
      const res = await t.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.match(String(res.headers['content-security-policy']), /script-src 'self'(;|$)/);
    }
    // Every page of this process names the same version; modules import each other relatively,
    // so `./dom.js` and `../i18n/en.json` resolve under it too.
    const version = /^\/assets\/(v-[0-9a-f]{12})\//.exec(urls[0] as string)?.[1];
    for (const page of [`/book/${hotel.id}`, '/desk', '/book/no-such-hotel']) {
      for (const url of await shellAssets(page)) assert.ok(url.startsWith(`/assets/${version}/`), url);
    }
    for (const key of ['shared/dom.js', 'i18n/pt.json', 'desk/desk-api.js']) {
      const res = await t.inject({ method: 'GET', url: `/assets/${version}/${key}` });
      assert.equal(res.statusCode, 200, key);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', key);
    }
  });

  it('computes the version from the files: it changes with any content', () => {
    const root = mkdtempSync(join(tmpdir(), 'innkeep-web-'));
    try {
      mkdirSync(join(root, 'shared'));
      writeFileSync(join(root, 'shared', 'a.js'), 'export const a = 1;\n');
      writeFileSync(join(root, 'notes.txt'), 'not servable');
      const first = loadStaticAssets(root);
      assert.deepEqual([...first.files.keys()], ['shared/a.js']);
      assert.equal(loadStaticAssets(root).version, first.version, 'same files, same version');
      writeFileSync(join(root, 'shared', 'a.js'), 'export const a = 2;\n');
      assert.notEqual(loadStaticAssets(root).version, first.version);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('revalidates unversioned and other-version asset URLs (ETag, 304), and finds nothing outside web/', async () => {
    for (const url of ['/assets/book/book.js', '/assets/v-000000000000/book/book.js']) {
      const res = await t.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      const etag = String(res.headers.etag);
      assert.match(etag, /^"[\w-]+"$/);
      const again = await t.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
    }
    for (const url of [
      '/assets/../src/app.ts',
      '/assets/v-000000000000/../../src/app.ts',
      '/assets/v-zz/book/book.js',
    ]) {
      const missing = await t.inject({ method: 'GET', url });
      assert.equal(missing.statusCode, 404, url);
      assert.equal(missing.json().code, 'not_found');
    }
  });

  it('serves the HTML shells with no-cache and an ETag (304 when unchanged), per language', async () => {
    const en = await t.inject({ method: 'GET', url: '/checkin', headers: { 'accept-language': 'en' } });
    assert.equal(en.headers['cache-control'], 'no-cache');
    assert.equal(en.headers.vary, 'Origin, Accept-Language');
    const etag = String(en.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await t.inject({
      method: 'GET',
      url: '/checkin',
      headers: { 'accept-language': 'en', 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const es = await t.inject({
      method: 'GET',
      url: '/checkin',
      headers: { 'accept-language': 'es', 'if-none-match': etag },
    });
    assert.equal(es.statusCode, 200, 'another language is another shell');
    assert.notEqual(es.headers.etag, etag);
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
    const [, , script] = await shellAssets('/desk');
    const versioned = await t.inject({
      method: 'GET',
      url: script as string,
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(versioned.headers['content-encoding'], 'br', 'versioned assets are compressed too');
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

  it('marks the 404 of an unknown route (unknownRoute: true), so /desk tells it from an unknown resource', async () => {
    const route = await t.inject({ method: 'GET', url: '/api/v1/operator/no-such-endpoint' });
    assert.equal(route.statusCode, 404);
    assert.equal(route.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(route.json().code, 'not_found');
    assert.equal(route.json().unknownRoute, true);
    const reservation = await t.inject({ method: 'GET', url: '/api/v1/booking/hotels/no-such-hotel' });
    assert.equal(reservation.statusCode, 404);
    assert.equal(reservation.json().code, 'not_found');
    assert.equal(reservation.json().unknownRoute, undefined);
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
