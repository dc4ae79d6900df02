import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The floor of any booking (issue 36): a bare Fastify server that commits one INSERT per request
 * and answers its id. `FLOOR_DATABASE_URL` set: the same PostgreSQL server the service uses,
 * through a `pg` pool as large as the service's (`DB_POOL_SIZE`, default 10); unset: a bare PGlite
 * in `FLOOR_DATA_DIR` (the embedded engine's files on disk, as the service keeps them). No
 * plugins, no validation, no events: one durable commit and the answer.
 */
const url = process.env.FLOOR_DATABASE_URL ?? '';
const table = `CREATE TABLE IF NOT EXISTS bench_commit_floor (
  id bigserial PRIMARY KEY,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;
const insert = 'INSERT INTO bench_commit_floor (payload) VALUES ($1) RETURNING id';

let commit: (payload: string) => Promise<unknown>;
let close: () => Promise<void>;
if (url) {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DB_POOL_SIZE ?? 10) });
  await pool.query(table);
  commit = async (payload) => (await pool.query(insert, [payload])).rows[0]?.id;
  close = () => pool.end();
} else {
  const db = await PGlite.create({ dataDir: process.env.FLOOR_DATA_DIR ?? 'memory://' });
  await db.exec(table);
  commit = async (payload) => (await db.query<{ id: string }>(insert, [payload])).rows[0]?.id;
  close = () => db.close();
}

const app = Fastify({ logger: false });
app.post('/', async (request) => ({ id: String(await commit(JSON.stringify(request.body ?? null))) }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(close)
    .then(() => process.exit(0));
});
