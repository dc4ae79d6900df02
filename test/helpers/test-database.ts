/**
 * Test databases, one per test file, made quickly.
 *
 * Embedded (PGlite): initdb plus the migrations take seconds per database. A migrated data
 * directory is dumped once and cached on disk under a hash of the migrations, the PGlite version
 * and the test settings (so a new migration or upgrade makes a new one, never a stale one); a
 * test process starts one PGlite from it, and each test file after the first finds that database
 * emptied back to the template's state (reusedPGlite). The apps of one test file
 * share its database (tests keep apart by unique hotel ids, or empty the table they are about).
 *
 * PostgreSQL: `npm run test:pg` (scripts/with-pg-database.ts) migrates one template database per
 * run and names it in INNKEEP_TEST_PG_TEMPLATE; each test file creates its own database from it.
 * The run drops every database it made (all named INNKEEP_TEST_PG_RUN_…) when it ends.
 *
 * A test process may run several files one after another (scripts/run-tests.ts): beginTestFile,
 * the first hook of each file, closes the previous file's database and lets the next one make
 * its own, on either engine.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../../src/infra/db/database.ts';
import { migrate, migrationFiles } from '../../src/infra/db/migrate.ts';
import { createPGlite, embeddedDatabase } from '../../src/infra/db/pglite.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { citusNodesFromEnv, createCitusDatabase } from './citus-cluster.ts';
import { TEST_SHARD_ENV } from './test-run-env.ts';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'innkeep-test');

let template: Promise<Blob> | undefined;
let fileDatabase: Promise<Database> | undefined;
/** Makes this file's handle refuse all further use: its file has ended. */
let retireFileDatabase: (() => void) | undefined;
let postgresUrl: Promise<string | undefined> | undefined;

/**
 * This test file's embedded database, opened on first use. Closing the handle leaves the
 * database open for the file's next app; the handle stops working after the file's tests
 * (beginTestFile), and the database closes with the process.
 */
export async function testFileEmbeddedDatabase(): Promise<Database> {
  fileDatabase ??= openFileDatabase();
  return fileDatabase;
}

async function openFileDatabase(): Promise<Database> {
  const db = embeddedDatabase(await reusedPGlite());
  let retired = false;
  retireFileDatabase = () => {
    retired = true;
  };
  /** `work`, unless the file that opened this handle has ended. */
  const whileOpen = async <T>(work: () => Promise<T>): Promise<T> => {
    if (retired) throw new Error('the test file that opened this database has ended');
    return work();
  };
  // A new handle (a new identity, so nothing kept per database carries over) that refuses use
  // once its file has ended: an app a file left running cannot write into the next file's data.
  return {
    ...db,
    query: (sql, params) => whileOpen(() => db.query(sql, params)),
    script: (sql) => whileOpen(() => db.script(sql)),
    transaction: (fn) => whileOpen(() => db.transaction(fn)),
    ping: () => whileOpen(() => db.ping()),
    close: async () => {},
  };
}

/**
 * The process's PGlite for test files, kept from one file to the next and emptied in between:
 * starting one from the template costs about 0.6 CPU s (unpacking 40 MB into its memory file
 * system, starting PostgreSQL), emptying its tables 0.05. A file finds it exactly as a fresh copy
 * of the template would be: every table but schema_migrations truncated with its sequences
 * restarted, the session's settings discarded, and the schema checked against the template's
 * (a file that changed it and did not undo the change gets a fresh copy instead).
 */
let sharedPGlite: Promise<PGlite> | undefined;
let templateSchema: string | undefined;

/** Called once per test file: a PGlite that is already open served an earlier file. */
async function reusedPGlite(): Promise<PGlite> {
  if (sharedPGlite) {
    const pglite = await sharedPGlite;
    if (!(await emptied(pglite))) {
      sharedPGlite = undefined;
      await pglite.close().catch(() => {});
    }
  }
  sharedPGlite ??= (async () => {
    template ??= migratedDataDir();
    const pglite = await createPGlite(null, await template);
    templateSchema ??= await schemaOf(pglite);
    return pglite;
  })();
  return sharedPGlite;
}

const EMPTY_TABLES = `DO $$ BEGIN
  EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I.%I', schemaname, tablename), ', ') || ' RESTART IDENTITY'
           FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations');
END $$`;

/** Tables, columns, constraints, indexes, triggers, functions and migrations of the schema, hashed. */
const SCHEMA = `SELECT md5(string_agg(x, ',' ORDER BY x)) AS schema FROM (
  SELECT c.relkind::text || ':' || c.relname || ':' || coalesce(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), '') AS x
  FROM pg_class c
  LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
  WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT 'k:' || conname || ':' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 't:' || tgname FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'f:' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
  UNION ALL SELECT 'm:' || version FROM schema_migrations) s`;

async function schemaOf(pglite: PGlite): Promise<string> {
  return (await pglite.query<{ schema: string }>(SCHEMA)).rows[0]?.schema ?? '';
}

/** Empties the shared PGlite for the next file; false when it cannot be made like the template. */
async function emptied(pglite: PGlite): Promise<boolean> {
  try {
    if (pglite.closed) return false;
    await pglite.exec('ROLLBACK'); // a transaction a failed file left open (a warning when none)
    await pglite.exec(EMPTY_TABLES);
    await pglite.exec('DISCARD ALL');
    return (await schemaOf(pglite)) === templateSchema;
  } catch {
    return false;
  }
}

/**
 * Closes the process's PGlite: an open one keeps its process from exiting, and the test runner
 * waits for every test process. A file run alone closes it after its last test (a root hook,
 * registered as this module loads, while the file loads); a process of `npm test` calls this after
 * its last file, since it declares its files one after another and its root hooks run after the
 * first.
 */
export async function closeTestDatabases(): Promise<void> {
  retireFileDatabase?.();
  fileDatabase = undefined;
  const pglite = await sharedPGlite;
  sharedPGlite = undefined;
  await pglite?.close();
}
if (!process.env[TEST_SHARD_ENV]) after(closeTestDatabases);

/**
 * Starts the next test file of a process that runs several (scripts/run-tests.ts, first hook of
 * each file's suite): the file gets a database of its own on either engine, as a file in a
 * process of its own would, so no file sees another's rows, keys or pending deliveries.
 */
export async function beginTestFile(): Promise<void> {
  retireFileDatabase?.();
  retireFileDatabase = undefined;
  fileDatabase = undefined;
  postgresUrl = undefined;
  for (const listener of fileListeners) await listener();
}

const fileListeners: (() => Promise<void>)[] = [];

/** Runs `listener` as each test file starts (e.g. to learn the file's database URL). */
export function onTestFile(listener: () => Promise<void>): void {
  fileListeners.push(listener);
}

// A file run in a process of its own starts here. In a shard of several files
// (scripts/run-tests.ts sets TEST_SHARD_ENV), each file's suite calls beginTestFile instead.
if (!process.env[TEST_SHARD_ENV]) before(beginTestFile);

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
  await mkdir(dataDir, { recursive: true });
  // cp(1), not fs.cp: the data directory is a thousand files, which fs.cp copies one await at a
  // time in about a CPU second; cp takes a twentieth of that.
  await execFileAsync('cp', ['-R', await seedDir, path.join(dataDir, 'pgdata')]);
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
 * This test file's migrated database on the suite's engine, for tests below the HTTP layer: a pool
 * on its PostgreSQL copy under `npm run test:pg`, else its embedded one. Close it when done.
 */
export async function testFileDatabase(
  poolSize = 4,
  options: { /** false when the caller migrates it (the runtime does) */ migrate?: boolean } = {},
): Promise<Database> {
  const url = await testDatabaseUrl();
  const db = url ? openPostgresDatabase({ url, poolSize }) : await testFileEmbeddedDatabase();
  // A no-op on the migrated copies; a DATABASE_URL set by hand may name an empty database.
  if (options.migrate !== false) await migrate(db);
  return db;
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
  const citus = citusNodesFromEnv(base);
  if (citus) {
    // Citus (CITUS_URL): the template copied on every node (test/helpers/citus-cluster.ts).
    await createCitusDatabase(citus, name, templateName);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.toString();
  }
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
