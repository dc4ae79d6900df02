import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tablesWritten } from './pglite.ts';

const set = (...t: string[]) => new Set(t);

describe('tablesWritten (the embedded engine’s change count)', () => {
  it('a plain read writes nothing, a locking read neither', () => {
    assert.deepEqual(tablesWritten('SELECT id FROM reservations WHERE id = $1'), set());
    assert.deepEqual(tablesWritten('SELECT id FROM reservations WHERE id = $1 FOR UPDATE'), set());
    assert.deepEqual(tablesWritten('WITH x AS (SELECT 1) SELECT * FROM x'), set());
  });
  it('a write names its targets, CTEs included', () => {
    assert.deepEqual(tablesWritten('UPDATE reservations SET status = $2 WHERE id = $1'), set('reservations'));
    assert.deepEqual(
      tablesWritten(
        'WITH saved AS (UPDATE checkin_steps SET data = $3 RETURNING data) UPDATE checkin_sessions SET x = 1',
      ),
      set('checkin_steps', 'checkin_sessions'),
    );
    assert.ok(tablesWritten('INSERT INTO events (a) VALUES ($1) ON CONFLICT DO NOTHING')?.has('events'));
    assert.ok(tablesWritten('DELETE FROM checkin_sessions WHERE id = $1')?.has('checkin_sessions'));
    assert.ok(tablesWritten('UPDATE public.reservations SET x = 1')?.has('reservations'));
  });
  it('a setting alone writes nothing', () => {
    assert.deepEqual(tablesWritten('SET LOCAL synchronous_commit = off'), set());
    assert.deepEqual(tablesWritten('SHOW server_version'), set());
    assert.equal(tablesWritten('SET LOCAL x = 1; DELETE FROM reservations'), null);
  });
  it('anything else may write anything', () => {
    assert.equal(tablesWritten('ALTER TABLE reservations ADD COLUMN x int'), null);
    assert.equal(tablesWritten('TRUNCATE reservations; SELECT 1'), null);
    assert.equal(tablesWritten('-- a comment\nUPDATE reservations SET x = 1'), null);
    assert.equal(tablesWritten("SELECT nextval('s')"), null);
  });
});
