import { describe, expect, it } from 'vitest';
import { nonPublicReason, refusedTarget } from './webhook-targets.ts';

describe('which addresses live webhooks may reach', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(nonPublicReason(address)).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:192.168.0.1', 'private'],
  ])('%s is refused as %s', (address, range) => {
    expect(nonPublicReason(address)).toBe(`${address}, a ${range} address`);
  });

  it.each([
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['fc00::1', 'a unique local address'],
    ['64:ff9b::a00:1', 'a NAT64 address'],
    ['2001:db8::1', 'a reserved address'],
    // IPv4-compatible (deprecated) forms of 127.0.0.1 and 10.0.0.1, as the URL parser writes
    // [::127.0.0.1] and [::10.0.0.1], and the rest of the reserved ::/8.
    ['::7f00:1', 'an IPv6 address outside global unicast (2000::/3)'],
    ['::a00:1', 'an IPv6 address outside global unicast (2000::/3)'],
    ['::1:0:0:1', 'an IPv6 address outside global unicast (2000::/3)'],
    ['4000::1', 'an IPv6 address outside global unicast (2000::/3)'],
  ])('%s is refused as %s', (address, words) => {
    expect(nonPublicReason(address)).toBe(`${address}, ${words}`);
  });

  it('test mode takes any URL; live mode wants https', async () => {
    expect(await refusedTarget(new URL('http://127.0.0.1:9/hook'), 'test')).toBeNull();
    expect(await refusedTarget(new URL('http://93.184.216.34/hook'), 'live')).toBe('must be an https URL in live mode');
    expect(await refusedTarget(new URL('https://93.184.216.34/hook'), 'live')).toBeNull();
  });

  it('a refusal names neither the host nor its address: it goes into an API error', async () => {
    expect(await refusedTarget(new URL('https://[::1]/hook'), 'live')).toBe('must reach a public address in live mode: its host is a loopback address');
    expect(await refusedTarget(new URL('https://[::127.0.0.1]/hook'), 'live')).toBe(
      'must reach a public address in live mode: its host is an IPv6 address outside global unicast (2000::/3)',
    );
    expect(await refusedTarget(new URL('https://127.0.0.1/hook'), 'live')).toBe('must reach a public address in live mode: its host is a loopback address');
    expect(await refusedTarget(new URL('https://localhost/hook'), 'live')).toBe(
      'must reach a public address in live mode: its hostname resolves to a loopback address',
    );
    expect(await refusedTarget(new URL('https://does-not-exist.invalid/hook'), 'live')).toMatch(
      /^must have a hostname that resolves \((ENOTFOUND|EAI_AGAIN|no answer within 5 s)\)$/,
    );
  });
});
