/**
 * Test databases, made quickly so test files can run in parallel, each on its own database.
 *
 * Embedded (PGlite): initdb plus the migrations take seconds per database, which dominated the
 * suite. A migrated data directory is dumped once and cached on disk under a hash of the
 * migrations and the PGlite version (so a new migration or upgrade makes a new one, never a stale
 * one); an embedded test database then starts from a copy of it in well under a second. The apps
 * of one test file share one such database, as they share one on PostgreSQL (tests keep apart by
 * unique hotel ids); tests that need an empty database of their own open one.
 *
 * PostgreSQL: `npm run test:pg` (scripts/with-pg-database.ts) migrates one template database per
 * run and names it in INNKEEP_TEST_PG_TEMPLATE; each test process (one per test file) creates its
 * own database from it, so files running side by side never see each other's rows. The run drops
 * every database it made (all named INNKEEP_TEST_PG_RUN_…) when it ends.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../../src/infra/db/database.ts';
import { migrate, migrationFiles } from '../../src/infra/db/migrate.ts';
import { createPGlite, embeddedDatabase } from '../../src/infra/db/pglite.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'innkeep-test');

let template: Promise<Blob> | undefined;
let fileDatabase: Promise<Database> | undefined;

/**
 * This test file's (this process's) embedded database, opened on first use. Closing the handle
 * leaves the database open for the file's next app; it ends with the process.
 */
export async function testFileEmbeddedDatabase(): Promise<Database> {
  fileDatabase ??= openTestEmbeddedDatabase();
  const db = await fileDatabase;
  return { ...db, close: async () => {} };
}

// An open PGlite keeps its process from exiting, and the test runner waits for every file's
// process: the file's database closes after its last test. Registered as this module loads, which
// is while the test file itself loads, so the hook belongs to the file's root, not to one test.
after(closeFileDatabase);

async function closeFileDatabase(): Promise<void> {
  const db = await fileDatabase;
  fileDatabase = undefined;
  await db?.close();
}

/** A fresh, migrated, in-memory PGlite database of its own. */
export async function openTestEmbeddedDatabase(): Promise<Database> {
  template ??= migratedDataDir();
  return embeddedDatabase(await createPGlite(null, await template));
}

async function migratedDataDir(): Promise<Blob> {
  const file = path.join(CACHE_DIR, `pglite-migrated-${await templateKey()}.tar`);
  const cached = await readFile(file).catch(() => null);
  if (cached) return new Blob([cached], { type: 'application/x-tar' });
  const pglite = await createPGlite(null);
  const db = embeddedDatabase(pglite);
  try {
    await migrate(db);
    const dump = await pglite.dumpDataDir('none');
    const bytes = Buffer.from(await dump.arrayBuffer());
    // Several test processes may build it at once: each writes its own file and renames it into
    // place, so a reader never sees half of one.
    await mkdir(CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, bytes);
    await rename(partial, file);
    return new Blob([bytes], { type: 'application/x-tar' });
  } finally {
    await db.close();
  }
}

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  // The package does not export its package.json: find it from its entry point (…/dist/index.js).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  hash.update(JSON.parse(await readFile(manifest, 'utf8')).version);
  const migrations = path.join(ROOT, 'migrations');
  for (const name of await migrationFiles()) {
    hash.update(name).update(await readFile(path.join(migrations, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

let postgresUrl: Promise<string | undefined> | undefined;

/**
 * The PostgreSQL database of this test process (this test file): its own copy of the run's
 * migrated template under `npm run test:pg`; DATABASE_URL itself when set some other way; none
 * (embedded) otherwise.
 */
export function testDatabaseUrl(): Promise<string | undefined> {
  postgresUrl ??= ownPostgresDatabase();
  return postgresUrl;
}

async function ownPostgresDatabase(): Promise<string | undefined> {
  const base = process.env.DATABASE_URL;
  const templateName = process.env.INNKEEP_TEST_PG_TEMPLATE;
  if (!base || !templateName) return base || undefined;
  const name = runDatabaseName(`f${process.pid}`);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database name inside this run's namespace (PG_DATABASE_PREFIX plus the run's id), so the
 * run's clean-up finds it and parallel runs never collide.
 */
export function runDatabaseName(label: string): string {
  const run = process.env.INNKEEP_TEST_PG_RUN ?? 'innkeep_test';
  return `${run}_${label}_${randomBytes(3).toString('hex')}`;
}
