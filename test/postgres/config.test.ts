/**
 * DATA_ENCRYPTION_KEY with DATABASE_URL (API.md section 6): every process of a deployment must
 * share one key, so the service refuses to start without it and says how to make one. These
 * checks fail before any connection is made, so they run with or without a PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { nodeScript } from '../helpers/node-command.ts';
import { deadPort, newEncryptionKey, run } from './support.ts';

const URL_NOWHERE = 'postgres://postgres@127.0.0.1:1/innkeep';
const HOW_TO_MAKE_ONE = /randomBytes\(32\)\.toString\('base64'\)/;
const ISSUER = 'https://booking.example.com';

describe('DATA_ENCRYPTION_KEY with DATABASE_URL', () => {
  test('loadConfig refuses DATABASE_URL without a key and says how to make one', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: URL_NOWHERE }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /DATA_ENCRYPTION_KEY is required with DATABASE_URL/);
        assert.match(error.message, /share/);
        assert.match(error.message, HOW_TO_MAKE_ONE);
        return true;
      },
    );
  });

  test('loadConfig refuses a key that is not 32 bytes of base64, saying how to make one', () => {
    for (const bad of ['short', Buffer.alloc(16).toString('base64'), `${newEncryptionKey()}!`]) {
      assert.throws(
        () => loadConfig({ DATABASE_URL: URL_NOWHERE, DATA_ENCRYPTION_KEY: bad }),
        (error: unknown) => error instanceof ConfigError && HOW_TO_MAKE_ONE.test(error.message),
      );
    }
  });

  test('loadConfig accepts a good key, and the embedded engine needs none', () => {
    const key = newEncryptionKey();
    const env = { DATABASE_URL: URL_NOWHERE, DATA_ENCRYPTION_KEY: key, PUBLIC_BASE_URL: ISSUER };
    const config = loadConfig(env);
    assert.equal(config.databaseUrl, URL_NOWHERE);
    assert.deepEqual(config.dataEncryptionKey, Buffer.from(key, 'base64'));
    assert.equal(config.dbPoolSize, 10);
    assert.equal(loadConfig({ ...env, DB_POOL_SIZE: '3' }).dbPoolSize, 3);
    assert.equal(loadConfig({}).dataEncryptionKey, null);
  });

  test('the server exits non-zero with the explanation when the key is missing', async () => {
    const result = await run(nodeScript('src/server.ts'), { DATABASE_URL: URL_NOWHERE, PORT: '0' });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /DATA_ENCRYPTION_KEY is required with DATABASE_URL/);
    assert.match(result.stderr, HOW_TO_MAKE_ONE);
  });

  test('npm run migrate needs no key: it gets past configuration and fails only on the connection', async () => {
    const url = `postgres://postgres@127.0.0.1:${await deadPort()}/innkeep`;
    const result = await run(nodeScript('src/cli/migrate.ts'), { DATABASE_URL: url });
    assert.equal(result.code, 1);
    assert.doesNotMatch(result.stderr, /DATA_ENCRYPTION_KEY/);
    assert.match(result.stderr, /migration failed: .*ECONNREFUSED/);
  });
});

/**
 * PUBLIC_BASE_URL with DATABASE_URL (issue 8, item 7): its default names the process's own port, so
 * several processes would each sign check-in sessions with a different `iss`. With DATABASE_URL
 * (the several-process deployment) the service refuses to start without it, saying why.
 */
describe('PUBLIC_BASE_URL with DATABASE_URL', () => {
  const key = newEncryptionKey();

  test('loadConfig refuses DATABASE_URL without PUBLIC_BASE_URL, saying why and what to set', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: URL_NOWHERE, DATA_ENCRYPTION_KEY: key }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /PUBLIC_BASE_URL is required with DATABASE_URL/);
        assert.match(error.message, /issuer \(`iss`\)/);
        assert.match(error.message, /every process of the deployment must share one/);
        assert.match(error.message, /PUBLIC_BASE_URL=https:\/\//);
        return true;
      },
    );
  });

  test('one PUBLIC_BASE_URL is the issuer whatever the port; the embedded engine keeps its default', () => {
    for (const port of ['3000', '3001']) {
      const config = loadConfig({
        DATABASE_URL: URL_NOWHERE,
        DATA_ENCRYPTION_KEY: key,
        PUBLIC_BASE_URL: ISSUER,
        PORT: port,
      });
      assert.equal(config.publicBaseUrl, ISSUER);
    }
    assert.equal(loadConfig({ PORT: '3001' }).publicBaseUrl, 'http://127.0.0.1:3001');
  });

  test('the server exits 78 with the explanation when it is missing', async () => {
    const result = await run(nodeScript('src/server.ts'), {
      DATABASE_URL: URL_NOWHERE,
      DATA_ENCRYPTION_KEY: key,
      PORT: '0',
    });
    assert.equal(result.code, 78);
    assert.match(result.stderr, /PUBLIC_BASE_URL is required with DATABASE_URL/);
  });

  test('the CLIs, which neither sign nor link, do not need it', async () => {
    const url = `postgres://postgres@127.0.0.1:${await deadPort()}/innkeep`;
    for (const cli of ['migrate', 'purge-identity', 'rotate-keys']) {
      const result = await run(nodeScript(`src/cli/${cli}.ts`), {
        DATABASE_URL: url,
        DATA_ENCRYPTION_KEY: key,
      });
      assert.equal(result.code, 1, `${cli}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, /PUBLIC_BASE_URL/);
      assert.match(result.stderr, /ECONNREFUSED/);
    }
  });
});
