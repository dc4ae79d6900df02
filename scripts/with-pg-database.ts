/**
 * Runs a command against a fresh PostgreSQL database, then drops it:
 *   node --import tsx scripts/with-pg-database.ts npm test
 * The server comes from PG_ADMIN_URL (default: the local trust-auth server). With no server
 * reachable the run is reported as skipped (exit 0) unless PG_REQUIRED=true, never silently passed.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const adminUrl = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: with-pg-database.ts <command …>');
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
const name = `innkeep_test_${randomBytes(4).toString('hex')}`;
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
console.log(`PostgreSQL run: database ${name} on ${url.host}`);

const child = spawn(command[0] as string, command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url.toString() },
});
// Ctrl-C or a CI timeout: let the command stop, then still drop the database below.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code: number = await new Promise((resolve) =>
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
);
await admin
  .query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  .catch((e) => console.error(`could not drop ${name}: ${e.message}`));
await admin.end();
process.exit(code);
