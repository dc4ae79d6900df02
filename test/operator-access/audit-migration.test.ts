/**
 * Migration 105 folds the former audit_log (key changes, staff changes, guest register reads) into
 * the audit trail's audit_entries, on both engines, then drops it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Database } from '../../src/infra/db/database.ts';
import { migrate, migrationFiles } from '../../src/infra/db/migrate.ts';
import { openEmbeddedDatabase } from '../../src/infra/db/pglite.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { projectFile } from '../../src/infra/project-files.ts';
import { needsPostgres, scratchDatabase } from '../postgres/support.ts';

const FOLDING = '105_audit_trail.sql';

/** The schema as it was before the audit trail: every migration before 105, recorded. */
async function migrateBeforeAuditTrail(db: Database): Promise<void> {
  await db.script(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (const file of (await migrationFiles()).filter((f) => f < FOLDING)) {
    await db.script(await readFile(projectFile(`migrations/${file}`), 'utf8'));
    await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
  }
}

async function foldsTheOldLog(db: Database): Promise<void> {
  await migrateBeforeAuditTrail(db);
  await db.query(
    `INSERT INTO operator_keys (public_id, name, scopes, hotel_ids, key_hash, created_by)
     VALUES ('key_desk1', 'Desk PC', ARRAY['keys:write'], ARRAY['harbour'], '\\x01', 'cli')`,
  );
  await db.query(
    `INSERT INTO staff_accounts (public_id, email, name, role, every_hotel, created_by)
     VALUES ('usr_ana1', 'ana@h.test', 'Ana Ruiz', 'owner', true, 'cli')`,
  );
  const old = [
    [
      'aud_a1',
      'bootstrap',
      'key.created',
      null,
      { keyId: 'key_desk1', name: 'Desk PC', scopes: ['keys:write'] },
    ],
    [
      'aud_a2',
      'key_desk1',
      'guest_register.read',
      ['harbour'],
      { hotelId: 'harbour', date: '2027-03-01', guests: 4, format: 'csv' },
    ],
    [
      'aud_a3',
      'usr_ana1',
      'staff.modified',
      ['harbour', 'old-town'],
      { staffId: 'usr_bo1', changes: { role: ['manager', 'accountant'] } },
    ],
    ['aud_a4', 'key_gone', 'key.revoked', ['harbour'], { keyId: 'key_x', name: 'Old' }],
  ] as const;
  for (const [id, actor, action, hotels, details] of old) {
    await db.query(
      `INSERT INTO audit_log (public_id, actor, action, hotel_ids, details, created_at)
       VALUES ($1, $2, $3, $4::text[], $5::jsonb, '2027-03-01T10:00:00Z')`,
      [id, actor, action, hotels, JSON.stringify(details)],
    );
  }
  assert.deepEqual(await migrate(db), [FOLDING, ...(await migrationFiles()).filter((f) => f > FOLDING)]);
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT id, hotel_id, hotel_ids, actor_type, actor_id, actor_name, action, target_type, target_id,
            changes, details, request_id FROM audit_entries ORDER BY id`,
  );
  assert.deepEqual(rows, [
    {
      id: 'aud_a1',
      hotel_id: '',
      hotel_ids: null,
      actor_type: 'system',
      actor_id: 'bootstrap',
      actor_name: 'First start',
      action: 'key.created',
      target_type: 'key',
      target_id: 'key_desk1',
      changes: null,
      details: { name: 'Desk PC', scopes: ['keys:write'] },
      request_id: null,
    },
    {
      id: 'aud_a2',
      hotel_id: 'harbour',
      hotel_ids: ['harbour'],
      actor_type: 'key',
      actor_id: 'key_desk1',
      actor_name: 'Desk PC',
      action: 'guest_register.read',
      target_type: 'guest_register',
      target_id: 'harbour/2027-03-01',
      changes: null,
      details: { hotelId: 'harbour', date: '2027-03-01', guests: 4, format: 'csv' },
      request_id: null,
    },
    {
      id: 'aud_a3',
      hotel_id: '',
      hotel_ids: ['harbour', 'old-town'],
      actor_type: 'staff',
      actor_id: 'usr_ana1',
      actor_name: 'Ana Ruiz',
      action: 'staff.modified',
      target_type: 'staff',
      target_id: 'usr_bo1',
      changes: { role: ['manager', 'accountant'] },
      details: null,
      request_id: null,
    },
    {
      id: 'aud_a4',
      hotel_id: 'harbour',
      hotel_ids: ['harbour'],
      actor_type: 'key',
      actor_id: 'key_gone',
      actor_name: 'key_gone',
      action: 'key.revoked',
      target_type: 'key',
      target_id: 'key_x',
      changes: null,
      details: { name: 'Old' },
      request_id: null,
    },
  ]);
  const left = await db.query(
    `SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = 'audit_log'`,
  );
  assert.equal(left.rowCount, 0, 'the old table is gone');
}

describe('migration 105: the audit trail', () => {
  it('embedded: folds audit_log into audit_entries', async () => {
    const db = await openEmbeddedDatabase(null);
    try {
      await foldsTheOldLog(db);
    } finally {
      await db.close();
    }
  });

  it('PostgreSQL: folds audit_log into audit_entries', { skip: needsPostgres }, async () => {
    const scratch = await scratchDatabase();
    const db = openPostgresDatabase({ url: scratch.url, poolSize: 2 });
    try {
      await foldsTheOldLog(db);
    } finally {
      await db.close();
      await scratch.drop();
    }
  });
});
