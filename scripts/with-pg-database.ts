/**
 * Runs a command against fresh PostgreSQL databases, then drops them:
 *   node --import tsx scripts/with-pg-database.ts npm test
 * The server comes from PG_ADMIN_URL, else DATABASE_URL when it is set, else the local trust-auth
 * server. Every database the run makes is named PG_DATABASE_PREFIX (default innkeep_test) plus a
 * random run id, so runs can share a server with other work and never collide:
 *   <run>       DATABASE_URL for the command (empty; for anything that connects on its own)
 *   <run>_tpl   migrated once here; each test file copies it into a database of its own
 *               (test/helpers/test-database.ts), so files can run in parallel
 * With no server reachable the run is reported as skipped (exit 0) unless PG_REQUIRED=true, never
 * silently passed.
 *
 * Citus (issue 37): with CITUS_URL set (a coordinator whose `postgres` database lists its workers),
 * the run is on that cluster: each database is made on every node with the extension
 * (test/helpers/citus-cluster.ts), the template's tables distributed by migration 113, and each
 * test file's copy made on every node. `--citus` (npm run test:citus) asks for that run and is
 * reported as skipped without CITUS_URL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../src/infra/db/migrate.ts';
import { openPostgresDatabase } from '../src/infra/db/postgres.ts';
import {
  CITUS_WORKERS_ENV,
  type CitusNodes,
  createCitusDatabase,
  discoverCitusNodes,
  dropCitusDatabases,
} from '../test/helpers/citus-cluster.ts';

const citusAsked = process.argv[2] === '--citus';
const citusUrl = process.env.CITUS_URL || undefined;
if (citusAsked && !citusUrl) {
  console.log('Citus run: SKIPPED — CITUS_URL (the coordinator) is not set');
  process.exit(0);
}
const adminUrl = citusUrl
  ? (() => {
      const url = new URL(citusUrl);
      url.pathname = '/postgres';
      return url.toString();
    })()
  : (process.env.PG_ADMIN_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const prefix = process.env.PG_DATABASE_PREFIX ?? 'innkeep_test';
const command = process.argv.slice(citusAsked ? 3 : 2);
if (command.length === 0) {
  console.error('usage: with-pg-database.ts <command …>');
  process.exit(2);
}
// Names are spliced into CREATE DATABASE; leave room for the run id and the per-file suffix.
if (!/^[a-z_][a-z0-9_]{0,39}$/.test(prefix)) {
  console.error(`PG_DATABASE_PREFIX must be a lower-case SQL name of at most 40 characters, not ${prefix}`);
  process.exit(2);
}

const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
try {
  await admin.connect();
} catch (error) {
  const required = process.env.PG_REQUIRED === 'true';
  const where = `no server at ${adminUrl.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message})`;
  if (required) console.error(`PostgreSQL run: FAILED — ${where}; PG_REQUIRED=true`);
  else console.log(`PostgreSQL run: SKIPPED — ${where}`);
  process.exit(required ? 1 : 0);
}
let citus: CitusNodes | undefined;
if (citusUrl) {
  try {
    citus = await discoverCitusNodes(adminUrl);
  } catch (error) {
    console.error(`Citus run: FAILED — ${(error as Error).message}`);
    await admin.end();
    process.exit(1);
  }
}

const run = `${prefix}_${randomBytes(4).toString('hex')}`;
const urlOf = (name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Drops the run's database and every one named after it (templates, per-file copies, scratch). */
async function dropRunDatabases() {
  if (citus) return dropCitusDatabases(citus, run);
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $1 || '_')`,
    [run],
  );
  for (const { datname } of rows) {
    await admin
      .query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
      .catch((e) => console.error(`could not drop ${datname}: ${e.message}`));
  }
}

let code = 1;
try {
  if (citus) {
    await createCitusDatabase(citus, run);
    await createCitusDatabase(citus, `${run}_tpl`);
  } else {
    await admin.query(`CREATE DATABASE ${run}`);
    await admin.query(`CREATE DATABASE ${run}_tpl`);
  }
  // Migrated here once; it must have no connections left when the test files copy it.
  const template = openPostgresDatabase({ url: urlOf(`${run}_tpl`), poolSize: 1 });
  try {
    await migrate(template);
  } finally {
    await template.close();
  }
  console.log(
    `${citus ? 'Citus' : 'PostgreSQL'} run: databases ${run}, ${run}_* on ${new URL(adminUrl).host}${
      citus ? ` and workers ${citus.workers.map((w) => new URL(w).host).join(', ')}` : ''
    }`,
  );

  const child = spawn(command[0] as string, command.slice(1), {
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: urlOf(run),
      INNKEEP_TEST_PG_TEMPLATE: `${run}_tpl`,
      INNKEEP_TEST_PG_RUN: run,
      ...(citus ? { [CITUS_WORKERS_ENV]: citus.workers.join(',') } : {}),
    },
  });
  // Ctrl-C or a CI timeout: let the command stop, then still drop the databases below.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
} finally {
  await dropRunDatabases();
  await admin.end();
}
process.exit(code);
