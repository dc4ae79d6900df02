import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { docsAssets } from '../../src/infra/http/docs-assets.ts';
import { launchChromium, seriousA11yViolations, skipWithoutChromium } from '../helpers/browser.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('GET /docs: the API reference', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()], env: { LOG_LEVEL: 'silent' } });
  });
  after(() => t.close());

  /** Every script, style sheet and icon the page names. */
  const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);

  it('answers HTML whose every asset is served from this origin', async () => {
    const res = await t.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const assets = assetsOf(res.body);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')));
    for (const asset of assets) {
      assert.match(asset, /^\/docs\//, `${asset} is local`);
      assert.equal((await t.inject({ method: 'GET', url: asset })).statusCode, 200, asset);
    }
  });

  it('has a self-only Content-Security-Policy (no inline script, no other host)', async () => {
    const csp = String((await t.inject({ method: 'GET', url: '/docs' })).headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/, 'scripts from this origin only');
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /https:|http:|\*/, 'no other host is allowed');
  });

  it('loads this service’s OpenAPI document, without the public validator', async () => {
    const init = await t.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.equal(init.statusCode, 200);
    assert.match(init.body, /validatorUrl: null/);
    assert.match(init.body, /resolveUrl\('\.\/json'\)/);
    const page = await t.inject({ method: 'GET', url: '/docs/json' });
    const document = await t.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.deepEqual(page.json(), document.json());
  });

  for (const [encoding, decode] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    it(`serves the scripts, styles and the OpenAPI document ${encoding}-compressed with cache validators`, async () => {
      for (const url of [
        '/docs/static/swagger-ui-bundle.js',
        '/docs/static/swagger-ui.css',
        '/docs/static/swagger-initializer.js',
        '/api/v1/openapi.json',
      ]) {
        const plain = await t.inject({ method: 'GET', url });
        const res = await t.inject({ method: 'GET', url, headers: { 'accept-encoding': `${encoding}` } });
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-encoding'], encoding, url);
        assert.match(String(res.headers.vary), /accept-encoding/i, url);
        assert.ok(res.rawPayload.length < plain.rawPayload.length, `${url} is smaller compressed`);
        assert.equal(decode(res.rawPayload).toString('utf8'), plain.body, `${url} decodes to the original`);
        assert.equal(res.headers['cache-control'], 'no-cache', `${url}: revalidate (names carry no hash)`);
        const etag = String(res.headers.etag);
        assert.match(etag, /^W\/".+"$/, `${url} has a validator`);
        const again = await t.inject({
          method: 'GET',
          url,
          headers: { 'accept-encoding': 'br, gzip', 'if-none-match': etag },
        });
        assert.equal(again.statusCode, 304, `${url} revalidates without a body`);
        assert.equal(again.rawPayload.length, 0);
        assert.equal(again.headers['content-encoding'], undefined, `${url}: an empty 304 is not encoded`);
        assert.equal(again.headers['cache-control'], 'no-cache');
      }
    });
  }

  it('links Swagger UI’s large files under content-hashed names, cacheable for a year, compressed once', async () => {
    const page = await t.inject({ method: 'GET', url: '/docs' });
    const hashed = assetsOf(page.body).filter((a) => a.startsWith('/docs/assets/'));
    assert.deepEqual(hashed.map((a) => a.replace(/\.[0-9a-f]{16}\./, '.*.')).sort(), [
      '/docs/assets/swagger-ui-bundle.*.js',
      '/docs/assets/swagger-ui-standalone-preset.*.js',
      '/docs/assets/swagger-ui.*.css',
    ]);
    assert.equal(
      assetsOf(page.body).filter((a) => /\/static\/swagger-ui(-bundle)?\.(js|css)$/.test(a)).length,
      0,
    );
    const staticDir = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
      'static',
    );
    for (const url of hashed) {
      const original = readFileSync(
        path.join(staticDir, path.basename(url).replace(/\.[0-9a-f]{16}\./, '.')),
      );
      for (const [accept, encoding, decode] of [
        ['br, gzip', 'br', brotliDecompressSync],
        ['gzip, br;q=0', 'gzip', gunzipSync],
        ['identity', undefined, (b: Buffer) => b],
      ] as const) {
        const res = await t.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-encoding'], encoding, `${url} for ${accept}`);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', url);
        assert.match(String(res.headers.vary), /accept-encoding/i);
        assert.ok(decode(res.rawPayload).equals(original), `${url} (${accept}) is the file`);
        const again = await t.inject({
          method: 'GET',
          url,
          headers: { 'if-none-match': String(res.headers.etag) },
        });
        assert.equal(again.statusCode, 304);
      }
    }
    // Compressed once per process: the same bytes are handed out again.
    const bundle = [...docsAssets().values()].find((a) => a.file === 'swagger-ui-bundle.js');
    const first = bundle?.encoded('br');
    assert.ok(bundle && first !== undefined && bundle.encoded('br') === first);
    assert.equal(
      (await t.inject({ method: 'GET', url: '/docs/assets/swagger-ui-bundle.0000000000000000.js' }))
        .statusCode,
      404,
    );
  });

  it('keeps API answers uncompressed and uncached: compression is for the document and the page', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/.well-known/jwks.json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  });
});

describe('GET /docs in a headless browser', { skip: skipWithoutChromium }, () => {
  let t: TestApp;
  let origin: string;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()], env: { LOG_LEVEL: 'silent' } });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('renders every operation with no request leaving this origin and no CSP violation', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${origin}/docs`, { waitUntil: 'networkidle' });
      await page.waitForSelector('.opblock-summary-path');
      const paths = await page.$$eval('.opblock-summary-path', (nodes) =>
        nodes.map((node) => node.getAttribute('data-path')),
      );
      const document = (await t.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
        webhooks?: Record<string, Record<string, unknown>>;
      };
      // Swagger UI shows the OpenAPI 3.1 `webhooks` (what the service POSTs) as operations too.
      const operations = [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})].reduce(
        (n, item) => n + Object.keys(item).length,
        0,
      );
      assert.equal(paths.length, operations, 'one block per operation of the document');
      for (const path of Object.keys(document.paths)) assert.ok(paths.includes(path), `${path} is shown`);
      assert.ok(requests.length > 0);
      for (const url of requests) {
        assert.ok(url.startsWith(`${origin}/`) || url.startsWith('data:'), `${url} is same-origin`);
      }
      assert.deepEqual(problems, [], 'no console error (a CSP violation would be one)');

      // Accessible as far as Swagger UI's options and a theme allow: as loaded, then with an
      // operation, its schemas and its examples open.
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe: nothing serious or critical');
      await page.click('.opblock-summary-control >> nth=1');
      await page.waitForSelector('.opblock-body');
      for (const button of (await page.$$('.json-schema-2020-12-expand-deep-button')).slice(0, 3))
        await button.click();
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe, with an operation open');
    } finally {
      await browser.close();
    }
  });
});
