/**
 * `npm test`'s output (issue 24, item 13): a line per file, the failures with their file, names and
 * message, then node's totals; the whole TAP report in a file. Runs scripts/run-tests.ts on a test
 * file written for the purpose (one failing test, one passing, one skipped).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../helpers/service-process.ts';
import { TEST_BUILD_ENV } from '../helpers/test-run-env.ts';

const FIXTURE = `import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
describe('the desk', () => {
  it('adds up a bill', () => {
    assert.equal(1 + 1, 3, 'one and one make three');
  });
  it('passes', () => {});
  it.skip('is skipped', () => {});
});
`;

describe('npm test’s report', () => {
  it('summarises on stdout and keeps the full TAP report in a file', { timeout: 120_000 }, async () => {
    const name = `zz-runner-fixture-${process.pid}.test.ts`;
    const fixture = path.join(import.meta.dirname, name);
    const results = await mkdtemp(path.join(tmpdir(), 'innkeep-test-results-'));
    await writeFile(fixture, FIXTURE);
    try {
      const env = Object.fromEntries(
        Object.entries(process.env).filter(
          // The embedded engine whatever this run's (the fixture needs no database); this run's
          // build kept, so the inner run does not build `dist/` again under the other tests.
          ([key]) =>
            (key === TEST_BUILD_ENV || !key.startsWith('INNKEEP_TEST')) &&
            !key.startsWith('NODE_TEST') &&
            !['NODE_OPTIONS', 'DATABASE_URL'].includes(key),
        ),
      ) as Record<string, string>;
      const ran = await run(['--import', 'tsx', 'scripts/run-tests.ts', `test/hardening/${name}`], {
        ...env,
        TEST_RESULTS_DIR: results,
        TEST_CONCURRENCY: '1',
      });
      assert.equal(ran.code, 1, ran.stderr);
      const lines = ran.stdout.trimEnd().split('\n');
      assert.ok(lines.length < 40, `a short summary, not the TAP report:\n${ran.stdout}`);
      assert.match(ran.stdout, new RegExp(`^FAIL test/hardening/${name.replaceAll('.', '\\.')} `, 'm'));
      assert.match(
        ran.stdout,
        new RegExp(`✖ test/hardening/${name.replaceAll('.', '\\.')} › the desk › adds up a bill`),
      );
      assert.match(ran.stdout, /one and one make three/);
      assert.match(ran.stdout, /full report: .*embedded\.tap/);
      // node's closing lines, last, as CI reads them
      assert.deepEqual(lines.slice(-8, -1), [
        '# tests 3',
        '# suites 2',
        '# pass 1',
        '# fail 1',
        '# cancelled 0',
        '# skipped 1',
        '# todo 0',
      ]);
      assert.match(lines.at(-1) ?? '', /^# duration_ms /);
      const report = await readFile(path.join(results, 'embedded.tap'), 'utf8');
      assert.match(report, /^TAP version 13/);
      assert.match(report, /not ok \d+ - adds up a bill/);
      assert.match(report, /ok \d+ - passes/);
    } finally {
      await rm(fixture, { force: true });
      await rm(results, { recursive: true, force: true });
    }
  });
});
