/**
 * Test databases, one per test file, made quickly.
 *
 * Embedded (PGlite): initdb plus the migrations take seconds per database. A migrated data
 * directory is dumped once and cached on disk under a hash of the migrations, the PGlite version
 * and the test settings (so a new migration or upgrade makes a new one, never a stale one); a
 * file's database then starts from a copy of it in well under a second. The apps of one test file
 * share its database (tests keep apart by unique hotel ids); tests that need an empty database
 * of their own open one.
 *
 * PostgreSQL: `npm run test:pg` (scripts/with-pg-database.ts) migrates one template database per
 * run and names it in INNKEEP_TEST_PG_TEMPLATE; each test file creates its own database from it.
 * The run drops every database it made (all named INNKEEP_TEST_PG_RUN_…) when it ends.
 *
 * A test process may run several files one after another (scripts/run-tests.ts): beginTestFile,
 * the first hook of each file, closes the previous file's database and lets the next one make
 * its own, on either engine.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../../src/infra/db/database.ts';
import { migrate, migrationFiles } from '../../src/infra/db/migrate.ts';
import { createPGlite, embeddedDatabase } from '../../src/infra/db/pglite.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'innkeep-test');

let template: Promise<Blob> | undefined;
let fileDatabase: Promise<Database> | undefined;
let postgresUrl: Promise<string | undefined> | undefined;

/**
 * This test file's embedded database, opened on first use. Closing the handle leaves the
 * database open for the file's next app; it closes after the file's tests (beginTestFile), or
 * with the process.
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

/**
 * Starts the next test file of a process that runs several (scripts/run-tests.ts, first hook of
 * each file's suite): the file gets a database of its own on either engine, as a file in a
 * process of its own would, so no file sees another's rows, keys or pending deliveries.
 */
export async function beginTestFile(): Promise<void> {
  await closeFileDatabase();
  postgresUrl = undefined;
  for (const listener of fileListeners) await listener();
}

const fileListeners: (() => Promise<void>)[] = [];

/** Runs `listener` as each test file starts (e.g. to learn the file's database URL). */
export function onTestFile(listener: () => Promise<void>): void {
  fileListeners.push(listener);
}

// A file run in a process of its own starts here. In a shard this runs once at the start, and
// each file's suite calls beginTestFile again.
before(beginTestFile);

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
    for (const setting of TEMPLATE_SETTINGS) await pglite.exec(setting); // one at a time: not in a transaction
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

/**
 * Server settings of the test databases (postgresql.auto.conf, read at start). A test database
 * holds a few hundred rows: 128 MB of shared buffers, which PGlite zeroes at every start, cost
 * half a CPU second per database opened and bought nothing.
 */
const TEMPLATE_SETTINGS = [
  `ALTER SYSTEM SET shared_buffers = '8MB'`,
  `ALTER SYSTEM SET max_connections = 10`,
  `ALTER SYSTEM SET log_startup_progress_interval = 0`,
];

let seedDir: Promise<string> | undefined;

/**
 * A new DATA_DIR (under the system's temporary directory, named `prefix…`) whose embedded
 * database is already made and migrated, for tests that start the service or a CLI as a process
 * of its own. Such a start on an empty DATA_DIR runs initdb and every migration: about five CPU
 * seconds each time, which these tests are not about (npm-start and migrations tests still start
 * from nothing). The caller removes the directory.
 */
export async function seededDataDir(prefix: string, subdir?: string): Promise<string> {
  seedDir ??= migratedDirectory();
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const dataDir = subdir ? path.join(dir, subdir) : dir;
  await cp(await seedDir, path.join(dataDir, 'pgdata'), { recursive: true });
  return dir;
}

/** The migrated template unpacked on disk once (cached like the template itself). */
async function migratedDirectory(): Promise<string> {
  const dir = path.join(CACHE_DIR, `pgdata-${await templateKey()}`);
  if (await readFile(path.join(dir, 'PG_VERSION')).catch(() => null)) return dir;
  const partial = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  template ??= migratedDataDir();
  await (await createPGlite(partial, await template)).close();
  // Another process may have made it meanwhile: then keep theirs.
  await rename(partial, dir).catch(() => rm(partial, { recursive: true, force: true }));
  return dir;
}

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(TEMPLATE_SETTINGS.join(';'));
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
