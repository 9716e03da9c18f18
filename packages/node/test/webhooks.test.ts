import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constructEvent, Payframe, SignatureVerificationError } from '../src/index.ts';

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
const NOW = 1_795_342_555;
const BODY = JSON.stringify({ type: 'event', id: 'evt_1', name: 'charge.captured', created: NOW, mode: 'test', data: { object: { id: 'C1' } } });

/** Signed by hand from the scheme's definition, independently of the code under test. */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

function headers(overrides: Record<string, string> = {}): Record<string, string> {
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(NOW), 'webhook-signature': sign(SECRET, 'evt_1', NOW, BODY), ...overrides };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return (error as Error).message;
  }
  throw new Error('constructEvent accepted it');
}

describe('constructEvent', () => {
  it('returns the event of a correctly signed body, as a string, a Buffer or a Uint8Array', () => {
    expect(constructEvent(BODY, headers(), SECRET, { now: NOW })).toEqual(JSON.parse(BODY));
    expect(constructEvent(Buffer.from(BODY), headers(), SECRET, { now: NOW }).id).toBe('evt_1');
    expect(constructEvent(new TextEncoder().encode(BODY), headers(), SECRET, { now: NOW }).id).toBe('evt_1');
    expect(Payframe.webhooks.constructEvent(BODY, headers(), SECRET, { now: NOW }).name).toBe('charge.captured');
  });

  it('refuses a body that is not the raw body (the JSON already parsed, as express.json() leaves it), saying so', () => {
    for (const parsed of [JSON.parse(BODY), null, undefined, 42, [BODY]]) {
      expect(refusal(() => constructEvent(parsed as string, headers(), SECRET, { now: NOW }))).toMatch(/raw body/);
    }
  });

  it('refuses a changed body', () => {
    expect(refusal(() => constructEvent(BODY.replace('charge.captured', 'charge.refunded'), headers(), SECRET, { now: NOW }))).toMatch(/signature/);
  });

  it('refuses a wrong secret, and a secret that is not a whsec_ secret', () => {
    refusal(() => constructEvent(BODY, headers(), OTHER_SECRET, { now: NOW }));
    expect(refusal(() => constructEvent(BODY, headers(), 'not-a-secret', { now: NOW }))).toMatch(/whsec_/);
  });

  it('refuses a changed webhook-id or webhook-timestamp', () => {
    refusal(() => constructEvent(BODY, headers({ 'webhook-id': 'evt_2' }), SECRET, { now: NOW }));
    refusal(() => constructEvent(BODY, headers({ 'webhook-timestamp': String(NOW + 1) }), SECRET, { now: NOW }));
  });

  it('refuses a timestamp more than 300 s away either way, or the tolerance given', () => {
    const at = (timestamp: number) => headers({ 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(SECRET, 'evt_1', timestamp, BODY) });
    expect(constructEvent(BODY, at(NOW - 300), SECRET, { now: NOW }).id).toBe('evt_1');
    expect(constructEvent(BODY, at(NOW + 300), SECRET, { now: NOW }).id).toBe('evt_1');
    expect(refusal(() => constructEvent(BODY, at(NOW - 301), SECRET, { now: NOW }))).toMatch(/timestamp/);
    expect(refusal(() => constructEvent(BODY, at(NOW + 301), SECRET, { now: NOW }))).toMatch(/timestamp/);
    refusal(() => constructEvent(BODY, at(NOW - 61), SECRET, { now: NOW, tolerance: 60 }));
    expect(refusal(() => constructEvent(BODY, at(NOW), SECRET))).toMatch(/timestamp/);
    expect(refusal(() => constructEvent(BODY, headers({ 'webhook-timestamp': '1e9' }), SECRET, { now: NOW }))).toMatch(/timestamp/);
  });

  it('finds the headers in any key case, as arrays, or in a Headers', () => {
    const upper = Object.fromEntries(Object.entries(headers()).map(([name, value]) => [name.toUpperCase(), value]));
    expect(constructEvent(BODY, upper, SECRET, { now: NOW }).id).toBe('evt_1');
    const mixed = {
      'Webhook-Id': ['evt_1'],
      'Webhook-Timestamp': String(NOW),
      'Webhook-Signature': [sign(OTHER_SECRET, 'evt_1', NOW, BODY), sign(SECRET, 'evt_1', NOW, BODY)],
    };
    expect(constructEvent(BODY, mixed, SECRET, { now: NOW }).id).toBe('evt_1');
    expect(constructEvent(BODY, new Headers(headers()), SECRET, { now: NOW }).id).toBe('evt_1');
    const repeated = new Headers(headers({ 'webhook-signature': sign(OTHER_SECRET, 'evt_1', NOW, BODY) }));
    repeated.append('webhook-signature', sign(SECRET, 'evt_1', NOW, BODY));
    expect(constructEvent(BODY, repeated, SECRET, { now: NOW }).id).toBe('evt_1');
  });

  it('accepts any one matching signature of several, and ignores other versions', () => {
    const several = `v1a,${sign(SECRET, 'evt_1', NOW, BODY).slice(3)} ${sign(OTHER_SECRET, 'evt_1', NOW, BODY)} ${sign(SECRET, 'evt_1', NOW, BODY)}`;
    expect(constructEvent(BODY, headers({ 'webhook-signature': several }), SECRET, { now: NOW }).id).toBe('evt_1');
    const noneMatch = `v2,${sign(SECRET, 'evt_1', NOW, BODY).slice(3)} ${sign(OTHER_SECRET, 'evt_1', NOW, BODY)}`;
    refusal(() => constructEvent(BODY, headers({ 'webhook-signature': noneMatch }), SECRET, { now: NOW }));
  });

  it('refuses missing headers by name', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const { [name]: _left, ...rest } = headers();
      expect(refusal(() => constructEvent(BODY, rest, SECRET, { now: NOW }))).toContain(name);
    }
  });
});
