/**
 * Command lines beside the running embedded service (issue 24, items 14 and 15): `operator-key`
 * and `backup` ask the service over DATA_DIR/control.sock instead of refusing with exit 75, and
 * a backup taken while the service runs restores to a DATA_DIR that holds every reservation.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { nodeScript } from '../helpers/node-command.ts';
import { http, run, startService } from '../helpers/service-process.ts';
import { seededDataDir } from '../helpers/test-database.ts';

const tar = promisify(execFile);

function inDays(n: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Books the first offer of a two-night stay `fromToday` days ahead; answers the reservation id. */
async function bookSomething(baseUrl: string, fromToday: number): Promise<string> {
  const stay = {
    hotelId: 'harbour-view',
    checkIn: inDays(fromToday),
    checkOut: inDays(fromToday + 2),
    adults: 2,
  };
  const search = await http(baseUrl, 'POST', '/api/v1/booking/availability/search', stay);
  assert.equal(search.status, 200, JSON.stringify(search.body));
  const offer = search.body.offers[0];
  assert.ok(offer, `an offer for ${stay.checkIn}`);
  const quote = await http(baseUrl, 'POST', '/api/v1/booking/quote', {
    ...stay,
    roomTypeId: offer.roomType.id,
    ratePlanId: offer.ratePlan.id,
  });
  assert.equal(quote.status, 201, JSON.stringify(quote.body));
  const booked = await http(baseUrl, 'POST', '/api/v1/booking/reservations', {
    quoteId: quote.body.id,
    guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
    ...(offer.ratePlan.payment === 'prepaid' ? { payment: { token: 'tok_visa' } } : {}),
  });
  assert.equal(booked.status, 201, JSON.stringify(booked.body));
  return booked.body.id;
}

describe('command lines beside the running embedded service', () => {
  it('operator-key and backup work through the service; the backup restores every reservation', {
    timeout: 240_000,
  }, async () => {
    const dataDir = await seededDataDir('innkeep-control-');
    const backups = await mkdtemp(path.join(tmpdir(), 'innkeep-backup-'));
    const restored = await mkdtemp(path.join(tmpdir(), 'innkeep-restored-'));
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    const cli = (script: string, args: string[], dir = dataDir) =>
      run([...nodeScript(script), ...args], { DATA_DIR: dir });
    let service = await startService(env);
    try {
      const socket = await stat(path.join(dataDir, 'control.sock'));
      assert.ok(socket.isSocket());
      assert.equal(socket.mode & 0o777, 0o600, 'only the service’s user may connect');

      const created = await cli('src/cli/operator-key.ts', [
        'create',
        '--name',
        'Front desk',
        '--scopes',
        'reservations:read,reservations:write',
      ]);
      assert.equal(created.code, 0, created.stderr);
      const key = /^ik_[0-9a-z]{52}$/m.exec(created.stdout)?.[0];
      assert.ok(key, created.stdout);
      const auth = { authorization: `Bearer ${key}` };
      assert.equal(
        (await http(service.baseUrl, 'GET', '/api/v1/operator/hotels', undefined, auth)).status,
        200,
      );
      const listed = await cli('src/cli/operator-key.ts', ['list']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /"Front desk"\treservations:read,reservations:write\tall-hotels/);
      const usage = await cli('src/cli/operator-key.ts', ['create', '--name', 'x', '--scopes', 'admin']);
      assert.equal(usage.code, 64);
      assert.match(usage.stderr, /unknown scope\(s\): admin/);

      const reservations: string[] = [];
      for (const offset of [40, 50, 60]) reservations.push(await bookSomething(service.baseUrl, offset));

      const backup = await cli('src/cli/backup.ts', [path.join(backups, 'today')]);
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /backup written: .*pgdata\.tar\.gz/);
      // The service went on serving while it was taken.
      await bookSomething(service.baseUrl, 70);
      const again = await cli('src/cli/backup.ts', [path.join(backups, 'today')]);
      assert.equal(again.code, 1, 'a backup never writes over another');
      assert.match(again.stderr, /not empty/);

      assert.equal((await service.stop()).code, 0);

      // Restore as docs/production.md says: unpack into an empty DATA_DIR, the key beside it.
      await mkdir(path.join(restored, 'pgdata'));
      await tar('tar', [
        '-xzf',
        path.join(backups, 'today', 'pgdata.tar.gz'),
        '-C',
        path.join(restored, 'pgdata'),
      ]);
      await copyFile(
        path.join(backups, 'today', 'data-encryption.key'),
        path.join(restored, 'data-encryption.key'),
      );
      service = await startService({ ...env, DATA_DIR: restored });
      for (const id of reservations) {
        const found = await http(
          service.baseUrl,
          'GET',
          `/api/v1/operator/reservations/${id}`,
          undefined,
          auth,
        );
        assert.equal(found.status, 200, `${id} is in the restored copy: ${JSON.stringify(found.body)}`);
        assert.equal(found.body.status, 'confirmed');
      }
      const keyFile = await readFile(path.join(dataDir, 'data-encryption.key'), 'utf8');
      assert.equal(await readFile(path.join(restored, 'data-encryption.key'), 'utf8'), keyFile);
    } finally {
      await service.stop();
      await Promise.all([dataDir, backups, restored].map((d) => rm(d, { recursive: true, force: true })));
    }
  });

  it('backup and operator-key still work with no service running (they open the database)', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await seededDataDir('innkeep-control-idle-');
    const dest = path.join(await mkdtemp(path.join(tmpdir(), 'innkeep-backup-idle-')), 'b');
    try {
      const backup = await run([...nodeScript('src/cli/backup.ts'), dest], { DATA_DIR: dataDir });
      assert.equal(backup.code, 0, backup.stderr);
      assert.ok((await stat(path.join(dest, 'pgdata.tar.gz'))).size > 0);
      const usage = await run(nodeScript('src/cli/backup.ts'), { DATA_DIR: dataDir });
      assert.equal(usage.code, 64);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(path.dirname(dest), { recursive: true, force: true });
    }
  });
});
