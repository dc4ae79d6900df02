import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { SCOPES, type Scope } from '../../src/operator-access/scopes.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

export const OPERATOR = '/api/v1/operator';

export interface OperatorApp {
  t: TestApp;
  hotels: [HotelDef, HotelDef];
  /** A key with every scope on every hotel, made as the command line would. */
  root: string;
}

/** An app with two hotels (these, or two made by `makeHotel`) and a root operator key. */
export async function startOperatorApp(
  env: Record<string, string> = {},
  hotels: [HotelDef, HotelDef] = [makeHotel({ name: 'Harbour View' }), makeHotel({ name: 'Old Town' })],
  options: { wrapDb?: (db: Database) => Database } = {},
): Promise<OperatorApp> {
  const t = await startTestApp({ hotels, env: { LOG_LEVEL: 'silent', ...env }, ...options });
  const { secret } = await t.db.transaction((tx) =>
    insertCliKey(tx, operatorKeyHasher(t.config.dataEncryptionKey as Buffer), {
      name: 'test root',
      scopes: [...SCOPES],
      hotelIds: null,
    }),
  );
  return { t, hotels, root: secret };
}

export const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** Creates a key over HTTP with `by`; answers its id and secret. */
export async function makeKey(
  app: OperatorApp,
  grant: { scopes: readonly Scope[]; hotelIds?: string[] | null; name?: string },
  by = app.root,
): Promise<{ id: string; key: string }> {
  const response = await app.t.inject({
    method: 'POST',
    url: `${OPERATOR}/keys`,
    headers: auth(by),
    payload: { name: grant.name ?? 'test key', scopes: grant.scopes, hotelIds: grant.hotelIds },
  });
  if (response.statusCode !== 201)
    throw new Error(`key not created: ${response.statusCode} ${response.body}`);
  const body = response.json();
  return { id: body.id, key: body.key };
}

export async function revoke(app: OperatorApp, id: string): Promise<void> {
  const response = await app.t.inject({
    method: 'DELETE',
    url: `${OPERATOR}/keys/${id}`,
    headers: auth(app.root),
  });
  if (response.statusCode !== 204)
    throw new Error(`key not revoked: ${response.statusCode} ${response.body}`);
}
