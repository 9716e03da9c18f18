import { randomBytes } from 'node:crypto';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import { type CardSecret, openCard, sealCard } from './vault.ts';

const key = randomBytes(32);
const tokenId = '6f1c2a9e-3b7d-4c55-9a0e-2d8f4b1e7c30';
const secret: CardSecret = { number: TEST_CARDS.visa.number, cvc: '737' };

/** Flips one bit in the given dot-separated part (1 = nonce, 2 = tag, 3 = ciphertext) of a sealed string. */
function flipBit(sealed: string, part: 1 | 2 | 3, byte = 0): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part] ?? '', 'base64');
  bytes[byte] = (bytes[byte] ?? 0) ^ 0x01;
  parts[part] = bytes.toString('base64');
  return parts.join('.');
}

describe('card vault (AES-256-GCM)', () => {
  it('opens what it sealed', () => {
    expect(openCard(key, tokenId, sealCard(key, tokenId, secret))).toStrictEqual(secret);
  });

  it('round-trips 19-digit numbers and 4-digit CVCs', () => {
    const other = { number: '6205500000000000004', cvc: '1234' };
    expect(openCard(key, 'tok', sealCard(key, 'tok', other))).toStrictEqual(other);
  });

  it('the sealed string contains neither the number, nor its last 4 with BIN, nor the CVC in clear or base64', () => {
    const sealed = sealCard(key, tokenId, secret);
    expect(sealed).not.toContain(secret.number);
    expect(sealed).not.toContain(secret.number.slice(0, 6));
    expect(sealed).not.toContain(secret.cvc);
    const decoded = sealed
      .split('.')
      .slice(1)
      .map((part) => Buffer.from(part, 'base64').toString('latin1'))
      .join('|');
    expect(decoded).not.toContain(secret.number);
    expect(decoded).not.toContain(secret.cvc);
    expect(sealed).not.toContain(Buffer.from(JSON.stringify(secret)).toString('base64'));
  });

  it('has the shape v1.<nonce>.<tag>.<ciphertext> with a 96-bit nonce and a 128-bit tag', () => {
    const [version, iv, tag, ciphertext, extra] = sealCard(key, tokenId, secret).split('.');
    expect(version).toBe('v1');
    expect(Buffer.from(iv ?? '', 'base64')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(ciphertext ?? '', 'base64').length).toBeGreaterThan(0);
    expect(extra).toBeUndefined();
  });

  it('two seals of the same card differ (fresh nonce), and both open', () => {
    const first = sealCard(key, tokenId, secret);
    const second = sealCard(key, tokenId, secret);
    expect(first).not.toBe(second);
    expect(first.split('.')[1]).not.toBe(second.split('.')[1]);
    expect(openCard(key, tokenId, first)).toStrictEqual(secret);
    expect(openCard(key, tokenId, second)).toStrictEqual(secret);
  });

  it('never repeats a nonce, across the refills of its buffer of random bytes', () => {
    const sealed = Array.from({ length: 2_000 }, () => sealCard(key, tokenId, secret));
    expect(new Set(sealed.map((one) => one.split('.')[1])).size).toBe(sealed.length);
    expect(openCard(key, tokenId, sealed.at(-1) ?? '')).toStrictEqual(secret);
  });

  it('another token id as associated data does not open it', () => {
    const sealed = sealCard(key, tokenId, secret);
    expect(() => openCard(key, '6f1c2a9e-3b7d-4c55-9a0e-2d8f4b1e7c31', sealed)).toThrow();
    expect(() => openCard(key, '', sealed)).toThrow();
  });

  it('another key does not open it', () => {
    const sealed = sealCard(key, tokenId, secret);
    expect(() => openCard(randomBytes(32), tokenId, sealed)).toThrow();
  });

  it.each([
    ['nonce', 1, 0],
    ['nonce (last byte)', 1, 11],
    ['tag', 2, 0],
    ['tag (last byte)', 2, 15],
    ['ciphertext', 3, 0],
    ['ciphertext (tenth byte)', 3, 9],
  ] as const)('a flipped bit in the %s is detected', (_name, part, byte) => {
    const sealed = sealCard(key, tokenId, secret);
    const tampered = flipBit(sealed, part, byte);
    expect(tampered).not.toBe(sealed);
    expect(() => openCard(key, tokenId, tampered)).toThrow();
  });

  it.each([
    ['an empty string', () => ''],
    ['an unknown version', (sealed: string) => sealed.replace(/^v1\./, 'v2.')],
    ['a missing part', (sealed: string) => sealed.split('.').slice(0, 3).join('.')],
    ['truncated ciphertext', (sealed: string) => sealed.slice(0, -4)],
    [
      'swapped tag and ciphertext',
      (sealed: string) => {
        const [v, iv, tag, ct] = sealed.split('.');
        return [v, iv, ct, tag].join('.');
      },
    ],
  ])('rejects %s', (_name, mangle) => {
    const sealed = sealCard(key, tokenId, secret);
    expect(() => openCard(key, tokenId, mangle(sealed))).toThrow();
  });
});

describe('a truncated authentication tag', () => {
  it.each([12, 8, 4])('cut to %i bytes does not open', (bytes) => {
    const key = Buffer.alloc(32, 7);
    const [version, iv, tag, ciphertext] = sealCard(key, 'tok', { number: TEST_CARDS.visa.number, cvc: '123' }).split('.');
    const short = Buffer.from(tag ?? '', 'base64')
      .subarray(0, bytes)
      .toString('base64');
    expect(() => openCard(key, 'tok', [version, iv, short, ciphertext].join('.'))).toThrow();
  });
});
