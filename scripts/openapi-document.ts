/**
 * The service's OpenAPI document exactly as `GET /api/v1/openapi.json` serves it, built from the
 * route schemas by an app on a throw-away in-memory database with the demo catalogue (or on `db`,
 * a migrated database the caller owns: the tests pass theirs rather than pay for an initdb).
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/infra/db/database.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { createLogger } from '../src/infra/logger.ts';
import { createRuntime } from '../src/runtime.ts';

export async function buildOpenApiDocument(given?: Database): Promise<Record<string, unknown>> {
  const config = loadConfig({
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
    OPERATOR_BOOTSTRAP: 'false',
  });
  const db = given ?? (await openDatabase(config, { inMemory: true }));
  const runtime = await createRuntime(config, createLogger('silent'), { db });
  try {
    const res = await runtime.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
    return res.json();
  } finally {
    await runtime.close();
    if (!given) await db.close();
  }
}
