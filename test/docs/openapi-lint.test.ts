/**
 * The OpenAPI document under the two linters integrators run on it: Redocly's `recommended` rules
 * and Spectral's `spectral:oas` ruleset. Any error or warning fails (hints and infos do not). The
 * same checks from the command line are in the README's testing notes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import SpectralCore from '@stoplight/spectral-core';
import SpectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { buildOpenApiDocument } from '../../scripts/openapi-document.ts';
import { testFileEmbeddedDatabase } from '../helpers/test-database.ts';

const { Document, Spectral } = SpectralCore;

describe('the OpenAPI document under Redocly and Spectral', () => {
  let source: string;
  before(async () => {
    source = JSON.stringify(await buildOpenApiDocument(await testFileEmbeddedDatabase()), null, 2);
  });

  it('has no error and no warning under Redocly’s recommended rules', async () => {
    const problems = await lintFromString({
      source,
      absoluteRef: '/openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const found = problems
      .filter((p) => p.severity === 'error' || p.severity === 'warn')
      .map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(found, []);
  });

  it('has no error and no warning under Spectral’s spectral:oas ruleset', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(source, SpectralParsers.Json, '/openapi.json'));
    // DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint.
    const found = results
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.severity === 0 ? 'error' : 'warning'} ${r.code} at ${r.path.join('.')}: ${r.message}`);
    assert.deepEqual(found, []);
  });

  it('types and bounds what the service enforces', () => {
    const doc = JSON.parse(source);
    const op = (path: string, method: string) => doc.paths[`/api/v1${path}`][method];
    const param = (path: string, name: string) =>
      op(path, 'get').parameters.find((p: { name: string }) => p.name === name).schema;
    for (const [path, max] of [
      ['/operator/events', 500],
      ['/operator/hotels/{hotel}/reservations', 200],
      ['/operator/audit-log', 200],
      ['/operator/webhook-endpoints/{id}/deliveries', 100],
    ] as const) {
      const limit = param(path, 'limit');
      assert.equal(limit.type, 'integer', path);
      assert.equal(limit.minimum, 1, path);
      assert.equal(limit.maximum, max, path);
    }
    assert.equal(param('/operator/events', 'after').minLength, 1);
    assert.equal(param('/operator/audit-log', 'cursor').minLength, 1);
    assert.equal(param('/operator/hotels/{hotel}/reservations', 'cursor').minLength, 1);
    for (const path of [
      '/booking/reservations/{reservation}/cancel',
      '/operator/reservations/{reservation}/cancel',
      '/operator/reservations/{reservation}/arrive',
      '/operator/reservations/{reservation}/depart',
      '/operator/reservations/{reservation}/no-show',
    ]) {
      assert.equal(op(path, 'post').requestBody.required, false, `${path}: its body is optional`);
      assert.equal(op(path, 'post')['x-optional-body'], undefined);
    }
    assert.ok(op('/checkin/sessions', 'post').responses['422'], 'POST /checkin/sessions lists its 422');
    const endpoint = op('/operator/webhook-endpoints', 'post').requestBody.content['application/json'].schema;
    assert.equal(endpoint.properties.events.items.minLength, 1, 'an event pattern is never empty');
    for (const [path, item] of Object.entries<Record<string, { security?: Record<string, string[]>[] }>>(
      doc.paths,
    )) {
      for (const operation of Object.values(item)) {
        for (const requirement of operation.security ?? [])
          assert.deepEqual(requirement.operatorKey ?? [], [], `${path}: no scopes on a bearer scheme`);
      }
    }
  });

  it('cites sections of docs/api.md that exist (no "API.md 7.1" outside the repository)', () => {
    const guide = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const sections = new Set([...guide.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]));
    const cited = [...source.matchAll(/docs\/api\.md §(\d+(?:\.\d+)?)/g)].map((m) => m[1]);
    assert.ok(cited.length >= 20, `the descriptions cite the guide (${cited.length} times)`);
    for (const section of cited) assert.ok(sections.has(section), `docs/api.md has no section ${section}`);
    assert.deepEqual(source.match(/\bAPI\.md\b/g) ?? [], [], 'the contract file is not in the repository');
  });
});
