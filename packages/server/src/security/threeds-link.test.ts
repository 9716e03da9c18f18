import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidThreeDSParam, threeDSParam, threeDSRedirect } from './threeds-link.ts';

const key = randomBytes(32);
const chargeId = 'C4829137465029183';

describe('threeDSParam', () => {
  it('is base64url(HMAC-SHA256(key, charge id))', () => {
    const expected = createHmac('sha256', key).update(chargeId).digest('base64url');
    expect(threeDSParam(key, chargeId)).toBe(expected);
    expect(threeDSParam(key, chargeId)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is stable for one charge and differs between charges and keys', () => {
    expect(threeDSParam(key, chargeId)).toBe(threeDSParam(key, chargeId));
    expect(threeDSParam(key, 'C4829137465029184')).not.toBe(threeDSParam(key, chargeId));
    expect(threeDSParam(randomBytes(32), chargeId)).not.toBe(threeDSParam(key, chargeId));
  });
});

describe('threeDSRedirect', () => {
  it.each([['https://pay.example.com/3d-secure'], ['https://pay.example.com/3d-secure/']])('from %s gives {url}/3d-secure/{id}?paRes=…', (threeDSUrl) => {
    const redirect = threeDSRedirect(threeDSUrl, key, chargeId);
    expect(redirect).toBe(`https://pay.example.com/3d-secure/${chargeId}?paRes=${threeDSParam(key, chargeId)}`);
  });

  it('keeps a base path and a port', () => {
    const redirect = new URL(threeDSRedirect('http://127.0.0.1:8080/payframe/3d-secure', key, chargeId));
    expect(redirect.origin).toBe('http://127.0.0.1:8080');
    expect(redirect.pathname).toBe(`/payframe/3d-secure/${chargeId}`);
    expect([...redirect.searchParams.keys()]).toEqual(['paRes']);
    expect(isValidThreeDSParam(key, chargeId, redirect.searchParams.get('paRes') ?? '')).toBe(true);
  });

  it.each([
    ['https://Pay.Example.com:443/3d-secure'],
    ['http://127.0.0.1:8080/a b/3d-secure/'],
    ['https://pay.example.com'],
    ['https://pay.example.com/3d?x=1'],
    ['https://pay.example.com/3d#top'],
  ])('from %s is the link the URL parser writes, for any id', (threeDSUrl) => {
    for (const id of [chargeId, 'C00000000000000000001', "a b/c?d#e%f'(g)*!~"]) {
      const url = new URL(`${threeDSUrl.replace(/\/$/, '')}/${encodeURIComponent(id)}`);
      url.searchParams.set('paRes', threeDSParam(key, id));
      expect(threeDSRedirect(threeDSUrl, key, id)).toBe(url.toString());
    }
  });

  it('is the same on every read of the charge', () => {
    const url = 'https://pay.example.com/3d-secure';
    expect(threeDSRedirect(url, key, chargeId)).toBe(threeDSRedirect(url, key, chargeId));
  });
});

describe('isValidThreeDSParam', () => {
  const right = threeDSParam(key, chargeId);

  it('accepts the right paRes', () => {
    expect(isValidThreeDSParam(key, chargeId, right)).toBe(true);
  });

  it.each([
    ['another charge’s paRes', threeDSParam(key, 'C4829137465029184')],
    ['a paRes made with another key', threeDSParam(randomBytes(32), chargeId)],
    ['the paRes truncated by one character', right.slice(0, -1)],
    ['the paRes truncated to half', right.slice(0, 21)],
    ['the paRes with one extra character', `${right}A`],
    ['the paRes with its last character changed', right.slice(0, -1) + (right.endsWith('A') ? 'B' : 'A')],
    ['the paRes in upper case', right.toUpperCase() === right ? `${right.slice(0, -1)}a` : right.toUpperCase()],
    ['an empty string', ''],
    ['the charge id', chargeId],
  ])('rejects %s', (_name, candidate) => {
    expect(isValidThreeDSParam(key, chargeId, candidate)).toBe(false);
  });

  it('rejects the right paRes for another charge id', () => {
    expect(isValidThreeDSParam(key, 'C4829137465029184', right)).toBe(false);
  });
});
