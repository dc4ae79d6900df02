import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { smtpRequiresStartTls } from './transport.ts';

describe('smtpRequiresStartTls: no password or message in clear over the network', () => {
  it('requires STARTTLS for a server named by anything but loopback', () => {
    for (const url of [
      'smtp://u:p@mail.example.com:587',
      'smtp://192.0.2.2:25',
      'smtp://10.0.0.5:25',
      'smtp://[2001:db8::1]:25',
      // Names are not trusted to stay on this host, whatever they resolve to or look like.
      'smtp://localhost.evil.example:25',
      'smtp://127.0.0.1.nip.io:25',
      'smtp://mail:25',
    ]) {
      assert.equal(smtpRequiresStartTls(url, false), true, url);
    }
  });

  it('exempts a relay on this host: localhost and the loopback addresses', () => {
    for (const url of [
      'smtp://localhost:25',
      'smtp://LocalHost.:25',
      'smtp://u:p@127.0.0.1:1025',
      'smtp://127.10.20.30:25',
      'smtp://[::1]:25',
      'smtp://[0:0:0:0:0:0:0:1]:25',
      'smtp://[::ffff:127.0.0.1]:25',
    ]) {
      assert.equal(smtpRequiresStartTls(url, false), false, url);
    }
  });

  it('leaves it to SMTP_ALLOW_PLAINTEXT, and smtps:// is TLS from the start', () => {
    assert.equal(smtpRequiresStartTls('smtp://mail.example.com:25', true), false);
    assert.equal(smtpRequiresStartTls('smtps://mail.example.com:465', false), false);
  });
});
