import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../src/infra/db/database.ts';
import { startTestApp } from '../helpers/test-app.ts';

/**
 * The runtime's close waits for a background job's run under way (here the catalogue's refresh,
 * every 5 s) before it goes on to close the pool: a run is never cut off by a closed engine. Its
 * old timers were only cleared, so close went on while the refresh still read the database.
 */
it('closing the service waits for the catalogue refresh under way', async () => {
  let reached = () => {};
  const refreshing = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = false;
  // The catalogue's refresh asks first for the hotels' fingerprint: that statement is held once,
  // after start-up's own refresh.
  const wrapDb = (db: Database): Database => ({
    ...db,
    async query(sql, params) {
      if (holding && sql.includes('coalesce(sum(revision)')) {
        holding = false;
        reached();
        await released;
      }
      return db.query(sql, params);
    },
  });
  const t = await startTestApp({ hotels: [], wrapDb });
  // The refresh's schedule is unref'd (it never keeps a service alive by itself), and nothing else
  // in this test holds the event loop while it waits for the refresh: this timer does.
  const keepAlive = setInterval(() => {}, 1_000);
  holding = true;
  try {
    await refreshing;
    let closed = false;
    const closing = t.runtime.close().then(() => {
      closed = true;
    });
    await sleep(200);
    assert.equal(closed, false, 'close went on while a refresh was under way');
    release();
    await closing;
    assert.equal(closed, true);
  } finally {
    clearInterval(keepAlive);
    release();
    await t.db.close();
  }
});
