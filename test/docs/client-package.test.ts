/**
 * clients/typescript as another project uses it (issue 24, item 10): packed with `npm pack` (its
 * `prepare` compiles it with tsc), unpacked into a project in a temporary directory outside the
 * repository's source tree, imported from plain JavaScript against a real port, and type-checked
 * from a TypeScript consumer.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { API_VERSION } from '../../src/infra/http/openapi.ts';
import { stay } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT = path.join(ROOT, 'clients', 'typescript');
/** Without what an npm running this test passes down to its children. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

const BOOK_AND_CANCEL = `import { createInnkeepClient } from '@innkeep/client';
const [baseUrl, hotelId, checkIn, checkOut] = process.argv.slice(2);
const innkeep = createInnkeepClient(baseUrl);
const stay = { hotelId, checkIn, checkOut, adults: 2 };
const search = await innkeep.POST('/api/v1/booking/availability/search', { body: stay });
if (search.error) throw new Error(search.error.code);
const offer = search.data.offers.find((o) => o.ratePlan.id === 'flex');
const quote = await innkeep.POST('/api/v1/booking/quote', {
  body: { ...stay, roomTypeId: offer.roomType.id, ratePlanId: offer.ratePlan.id },
});
if (quote.error) throw new Error(quote.error.code);
const booked = await innkeep.POST('/api/v1/booking/reservations', {
  body: { quoteId: quote.data.id, guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' } },
  headers: { 'Idempotency-Key': crypto.randomUUID() },
});
if (booked.error) throw new Error(booked.error.code);
const cancelled = await innkeep.POST('/api/v1/booking/reservations/{reservation}/cancel', {
  params: { path: { reservation: booked.data.id } },
  headers: { Authorization: 'Bearer ' + booked.data.accessToken },
});
const unknown = await innkeep.GET('/api/v1/booking/hotels/{hotel}', { params: { path: { hotel: 'no-such-hotel' } } });
console.log(JSON.stringify({ id: booked.data.id, status: cancelled.data.status, problem: unknown.error.code }));
`;

const TYPED_CONSUMER = `import { type components, createInnkeepClient } from '@innkeep/client';
type Reservation = components['schemas']['Reservation'];
export async function book(quoteId: string): Promise<Reservation['id'] | undefined> {
  const innkeep = createInnkeepClient('http://127.0.0.1:3000');
  const { data } = await innkeep.POST('/api/v1/booking/reservations', {
    body: { quoteId, guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' } },
  });
  return data?.id;
}
// @ts-expect-error: an unknown path is refused by the types
createInnkeepClient('http://x').GET('/api/v1/nowhere');
`;

describe('the TypeScript client as a package another project installs', () => {
  let t: TestApp;
  let baseUrl: string;
  let project: string;
  const hotel = makeHotel();
  before(async () => {
    t = await startTestApp({ hotels: [hotel], env: { LOG_LEVEL: 'silent' } });
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    project = await mkdtemp(path.join(tmpdir(), 'innkeep-client-user-'));
  });
  after(async () => {
    await t.close();
    await rm(project, { recursive: true, force: true });
  });

  it('is a public package whose version follows the API', async () => {
    const manifest = JSON.parse(await readFile(path.join(CLIENT, 'package.json'), 'utf8'));
    assert.equal(manifest.version, API_VERSION);
    assert.equal(manifest.private, undefined);
    assert.ok(manifest.dependencies['openapi-fetch'], 'openapi-fetch is a dependency, installed with it');
  });

  it('packs compiled JavaScript and types, installs elsewhere, and books and cancels from plain JS', {
    timeout: 120_000,
  }, async () => {
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', project], {
      cwd: CLIENT,
      env,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
    const files = packed.files.map((f: { path: string }) => f.path).sort();
    assert.deepEqual(files, [
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'openapi.json',
      'package.json',
    ]);

    // The project: the package unpacked as npm would install it; openapi-fetch from the repository's
    // node_modules (installing it would need the registry).
    const installed = path.join(project, 'node_modules', '@innkeep', 'client');
    await mkdir(installed, { recursive: true });
    await exec('tar', ['-xzf', path.join(project, packed.filename), '-C', installed, '--strip-components=1']);
    await symlink(
      path.join(ROOT, 'node_modules', 'openapi-fetch'),
      path.join(project, 'node_modules', 'openapi-fetch'),
    );
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'user', type: 'module', private: true }),
    );
    await writeFile(path.join(project, 'book.mjs'), BOOK_AND_CANCEL);

    const { checkIn, checkOut } = stay(t, 25, 2);
    const ran = await exec(process.execPath, ['book.mjs', baseUrl, hotel.id, checkIn, checkOut], {
      cwd: project,
      env,
    });
    const result = JSON.parse(ran.stdout);
    assert.equal(result.status, 'cancelled');
    assert.equal(result.problem, 'not_found');
    assert.match(result.id, /^[0-9A-Z]+$/);

    // A TypeScript project compiles against its types (strict, no skipLibCheck).
    await writeFile(path.join(project, 'consumer.ts'), TYPED_CONSUMER);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
      },
      files: ['consumer.ts'],
    };
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await exec(process.execPath, [tsc, '-p', project], { cwd: project, env }).catch(
      (error: { stdout: string }) => assert.fail(`the consumer does not type-check:\n${error.stdout}`),
    );
  });
});
