/**
 * `npm ci` on the oldest Node.js that package.json's `engines` names installs without an engine
 * warning: every installed package (dev ones too, they are installed as well) accepts it. A
 * dependency that raises its floor (ical-generator 11 and node-ical 0.27 need Node.js 22) fails
 * here, not on a newcomer's machine.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { it } from 'node:test';
import semver from 'semver';

const ROOT = path.resolve(import.meta.dirname, '../..');

it('every installed package accepts the oldest Node.js of engines, and this one is within it', async () => {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  const range: string = manifest.engines.node;
  const oldest = semver.minVersion(range);
  assert.ok(oldest, `engines.node ${range} names a version`);
  assert.ok(
    semver.satisfies(process.versions.node, range),
    `Node.js ${process.versions.node} is in ${range}`,
  );
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const refused: string[] = [];
  for (const [where, entry] of Object.entries<{ version?: string }>(lock.packages)) {
    if (!where) continue;
    // The lockfile does not always carry `engines`: the installed package.json does.
    const installed = await readFile(path.join(ROOT, where, 'package.json'), 'utf8').catch(() => null);
    if (installed === null) continue; // optional, for another platform
    const engines = JSON.parse(installed).engines?.node;
    if (typeof engines === 'string' && !semver.satisfies(oldest, engines)) {
      refused.push(`${where}@${entry.version} needs Node.js ${engines}`);
    }
  }
  assert.deepEqual(refused, []);
});
