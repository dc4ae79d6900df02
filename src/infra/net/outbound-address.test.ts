import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  embeddedIpv4Addresses,
  isPublicAddress,
  OutboundAddressError,
  resolveOutboundTarget,
} from './outbound-address.ts';

describe('isPublicAddress (SSRF)', () => {
  const refused = [
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '::1',
    '::',
    // IPv4-compatible (::/96), as typed and as the URL parser writes it
    '::127.0.0.1',
    '::7f00:1',
    '::10.0.0.1',
    '::169.254.169.254',
    // IPv4-mapped
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:c0a8:1',
    // SIIT IPv4-translated (RFC 7915)
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:a00:1',
    // NAT64 well-known prefix and local-use NAT64 (RFC 8215), whatever the embedding
    '64:ff9b::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::8.8.8.8',
    '64:ff9b:1:7f00:0:100::',
    // 6to4 of private addresses
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2002:c0a8:101::5',
    // Teredo (any), ISATAP of a private address
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:470::5efe:10.0.0.1',
    '2001:470::200:5efe:7f00:1',
    // unique local, link-local (with a zone), multicast, documentation
    'fd00:ec2::254',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    'not an address',
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => assert.equal(isPublicAddress(address), false));
  }

  const allowed = [
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8', // mapped public
    '64:ff9b::8.8.8.8', // NAT64 to a public address: how IPv6-only networks reach IPv4
    '2002:808:808::1', // 6to4 of a public address
    '2001:470::5efe:8.8.8.8', // ISATAP of a public address
  ];
  for (const address of allowed) {
    it(`allows ${address}`, () => assert.equal(isPublicAddress(address), true));
  }

  it('finds the IPv4 address each form embeds', () => {
    assert.deepEqual(embeddedIpv4Addresses('::127.0.0.1'), ['127.0.0.1']);
    assert.deepEqual(embeddedIpv4Addresses('::ffff:0:7f00:1'), ['127.0.0.1']);
    assert.deepEqual(embeddedIpv4Addresses('2002:c0a8:101::'), ['192.168.1.1']);
    assert.deepEqual(embeddedIpv4Addresses('2606:4700:4700::1111'), []);
  });
});

describe('resolveOutboundTarget', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name any of whose addresses is private, without naming the address', async () => {
    await assert.rejects(
      resolveOutboundTarget('https://hooks.example.com/x', {
        allowPrivate: false,
        resolve: resolvesTo('93.184.216.34', '10.1.2.3', '::ffff:0:127.0.0.1'),
      }),
      (error: unknown) =>
        error instanceof OutboundAddressError &&
        /^resolves to a loopback, private, link-local or otherwise reserved address$/.test(error.message) &&
        !/10\.1\.2\.3|127\.0\.0\.1|93\.184/.test(error.message),
    );
  });

  it('refuses the bracketed IPv6 literals of loopback the URL parser rewrites', async () => {
    for (const url of [
      'https://[::127.0.0.1]/',
      'https://[::ffff:0:127.0.0.1]/',
      'https://[64:ff9b:1::7f00:1]/',
    ]) {
      await assert.rejects(resolveOutboundTarget(url, { allowPrivate: false }), OutboundAddressError, url);
    }
  });

  it('answers the first address of a public name, pinned for the connection', async () => {
    const target = await resolveOutboundTarget('https://hooks.example.com/x', {
      allowPrivate: false,
      resolve: resolvesTo('2606:4700:4700::1111', '93.184.216.34'),
    });
    assert.deepEqual(
      [target.address, target.family, target.url.hostname],
      ['2606:4700:4700::1111', 6, 'hooks.example.com'],
    );
  });

  it('allows private addresses and http only when told to', async () => {
    const target = await resolveOutboundTarget('http://127.0.0.1:9/x', { allowPrivate: true });
    assert.equal(target.address, '127.0.0.1');
    await assert.rejects(resolveOutboundTarget('http://example.com/', { allowPrivate: false }), /https/);
  });
});
