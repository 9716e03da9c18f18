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
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:192.168.0.1', 'private'],
  ])('%s is refused as %s', (address, range) => {
    expect(nonPublicReason(address)).toBe(`${address}, a ${range} address`);
  });

  it('test mode takes any URL; live mode wants https', async () => {
    expect(await refusedTarget(new URL('http://127.0.0.1:9/hook'), 'test')).toBeNull();
    expect(await refusedTarget(new URL('http://93.184.216.34/hook'), 'live')).toBe('must be an https URL in live mode');
    expect(await refusedTarget(new URL('https://93.184.216.34/hook'), 'live')).toBeNull();
  });

  it('a refusal names neither the host nor its address: it goes into an API error', async () => {
    expect(await refusedTarget(new URL('https://[::1]/hook'), 'live')).toBe('must reach a public address in live mode: its host is a loopback address');
    expect(await refusedTarget(new URL('https://127.0.0.1/hook'), 'live')).toBe('must reach a public address in live mode: its host is a loopback address');
    expect(await refusedTarget(new URL('https://localhost/hook'), 'live')).toBe('must reach a public address in live mode: its hostname resolves to a loopback address');
    expect(await refusedTarget(new URL('https://does-not-exist.invalid/hook'), 'live')).toMatch(/^must have a hostname that resolves \((ENOTFOUND|EAI_AGAIN|no answer within 5 s)\)$/);
  });
});
