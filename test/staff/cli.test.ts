/**
 * `npm run staff -- invite` beside the running embedded service (API.md 12): the command line
 * asks the service over DATA_DIR/control.sock, prints the link once, and the invitation e-mail
 * (an .eml file without SMTP_URL) carries the same link in the person's language.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { nodeScript } from '../helpers/node-command.ts';
import { http, run, startService } from '../helpers/service-process.ts';
import { seededDataDir } from '../helpers/test-database.ts';

const STRONG = 'correct horse battery staple orbit';

describe('npm run staff beside the running embedded service', {
  skip: process.env.DATABASE_URL ? 'embedded engine only' : false,
}, () => {
  it('invites the first owner, whose link signs them in', { timeout: 180_000 }, async () => {
    const dataDir = await seededDataDir('innkeep-staff-');
    const service = await startService({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://desk.test' });
    try {
      const cli = (args: string[]) =>
        run([...nodeScript('src/cli/staff.ts'), ...args], { DATA_DIR: dataDir });
      const bad = await cli(['invite', '--email', 'ana@example.com', '--name', 'Ana', '--role', 'emperor']);
      assert.equal(bad.code, 64);
      assert.match(bad.stderr, /unknown role/);

      const done = await cli([
        'invite',
        '--email',
        'ana@example.com',
        '--name',
        'Ana',
        '--role',
        'owner',
        '--language',
        'es',
      ]);
      assert.equal(done.code, 0, done.stderr);
      const link = /^http:\/\/desk\.test\/desk\/welcome#(stk_[0-9a-z]{40,})$/m.exec(done.stdout);
      assert.ok(link, done.stdout);

      const again = await cli(['invite', '--email', 'ANA@example.com', '--name', 'Ana', '--role', 'owner']);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /already has an account/);

      // The e-mail, written as a file without SMTP_URL, carries the same link, in Spanish.
      let mail = '';
      for (let i = 0; i < 120 && !mail; i++) {
        const files = await readdir(path.join(dataDir, 'mail')).catch(() => [] as string[]);
        for (const f of files) {
          const text = await readFile(path.join(dataDir, 'mail', f), 'utf8');
          if (text.includes('ana@example.com')) mail = text;
        }
        if (!mail) await new Promise((r) => setTimeout(r, 500));
      }
      assert.ok(mail, 'the invitation e-mail was written');
      assert.match(mail.replace(/=\r?\n/g, ''), /desk\/welcome#/);
      assert.ok(
        mail.replace(/=\r?\n/g, '').includes(link[1] as string),
        'the e-mailed link is the printed one',
      );

      const accepted = await http(service.baseUrl, 'POST', `/api/v1/auth/invitations/${link[1]}/accept`, {
        password: STRONG,
      });
      assert.equal(accepted.status, 201, JSON.stringify(accepted.body));
      assert.equal(accepted.body.user.role, 'owner');
      assert.doesNotMatch(accepted.headers.get('set-cookie') ?? '', /Secure/, 'no Secure under http');
      // The accept request's URL holds the token: the request log masks it as it masks every secret.
      assert.ok(
        service.lines.some((l) => l.includes('/api/v1/auth/invitations/')),
        'the request is logged',
      );
      const secret = (link[1] as string).slice(8);
      assert.ok(!service.lines.some((l) => l.includes(secret)), 'the token is never logged in full');
    } finally {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
