import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, type KeyKind, keyHint, looksLikeApiKey, sameHash } from './api-keys.ts';

const KINDS = [
  ['secret', 'test', 'sk_test_'],
  ['secret', 'live', 'sk_live_'],
  ['publishable', 'test', 'pk_test_'],
  ['publishable', 'live', 'pk_live_'],
] as const satisfies ReadonlyArray<readonly [KeyKind, 'test' | 'live', string]>;

describe('generateApiKey', () => {
  it.each(KINDS)('%s %s keys start with %s and carry ≥ 32 base64url characters', (kind, mode, prefix) => {
    const key = generateApiKey(kind, mode);
    expect(key.startsWith(prefix)).toBe(true);
    const random = key.slice(prefix.length);
    expect(random).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    // 24 bytes of CSPRNG output, base64url without padding.
    expect(Buffer.from(random, 'base64url')).toHaveLength(24);
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('secret', 'test')));
    expect(keys.size).toBe(200);
  });
});

describe('looksLikeApiKey', () => {
  it.each([
    'sk_test_',
    'sk_test_short',
    `sk_prod_${'a'.repeat(32)}`,
    `xk_test_${'a'.repeat(32)}`,
    `sk_test_${'a'.repeat(31)}`,
    `sk_test_${'a'.repeat(31)}=`,
    `sk_test_${'a'.repeat(31)}+`,
    `SK_TEST_${'a'.repeat(32)}`,
    ` sk_test_${'a'.repeat(32)}`,
    '',
  ])('rejects %j', (candidate) => {
    expect(looksLikeApiKey(candidate)).toBe(false);
  });

  it('accepts 32 characters of base64url after the prefix', () => {
    expect(looksLikeApiKey(`pk_live_${'A-_z'.repeat(8)}`)).toBe(true);
  });
});

describe('hashApiKey', () => {
  it('is stable: the same key always gives the same SHA-256 hex digest', () => {
    const key = generateApiKey('secret', 'live');
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches a known SHA-256 vector', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differs between keys and does not contain the key', () => {
    const a = generateApiKey('secret', 'test');
    const b = generateApiKey('secret', 'test');
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
    expect(hashApiKey(a)).not.toContain(a.slice(8));
  });
});

describe('sameHash', () => {
  const key = generateApiKey('secret', 'test');
  it('is true for equal hashes and false otherwise', () => {
    expect(sameHash(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(sameHash(hashApiKey(key), hashApiKey(`${key}x`))).toBe(false);
    expect(sameHash(hashApiKey(key), hashApiKey(key).slice(0, 62))).toBe(false);
    expect(sameHash(hashApiKey(key), '')).toBe(false);
  });
});

describe('keyHint', () => {
  it.each(KINDS)('%s %s: shows the %s prefix and the last 4 characters only', (kind, mode, prefix) => {
    const key = generateApiKey(kind, mode);
    const hint = keyHint(key);
    expect(hint).toBe(`${prefix}…${key.slice(-4)}`);
    const random = key.slice(prefix.length);
    expect(hint).not.toContain(random);
    // At most 4 of the 32 random characters are visible.
    expect(hint.replace(prefix, '').replace('…', '').length).toBeLessThanOrEqual(4);
    expect(looksLikeApiKey(hint)).toBe(false);
  });
});
