import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newRequestId, randomIds, requestIdTime, timeHex } from './ids.ts';

describe('randomIds', () => {
  it('makes charge ids of C and digits, at least 16 of them random', () => {
    const ids = Array.from({ length: 1000 }, () => randomIds.charge());
    for (const id of ids) expect(id).toMatch(/^C\d{33}$/);
    // The last 20 digits are the random part: 1,000 draws never repeat it.
    expect(new Set(ids.map((id) => id.slice(-20))).size).toBe(ids.length);
  });

  it('makes UUIDs of version 7 that the contract accepts', () => {
    const ids = Array.from({ length: 1000 }, () => randomIds.uuid());
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(z.uuid().safeParse(id).success).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes prefixed ids of the prefix and 24 hex digits', () => {
    const ids = Array.from({ length: 1000 }, () => randomIds.prefixed('evt'));
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes prefixed ids that increase within one millisecond, in the order they were made', () => {
    const ids = Array.from({ length: 1000 }, () => randomIds.prefixed('evt'));
    expect([...ids].sort()).toEqual(ids);
    // Within a millisecond the tail counts up by one from a random start. Which millisecond holds
    // several ids depends on scheduling (the first may be its millisecond's last), so all are checked.
    const groups = new Map<string, string[]>();
    for (const id of ids) groups.set(id.slice(4, 16), [...(groups.get(id.slice(4, 16)) ?? []), id]);
    expect(Math.max(...[...groups.values()].map((group) => group.length))).toBeGreaterThan(1);
    for (const group of groups.values()) {
      const tails = group.map((id) => parseInt(id.slice(16), 16));
      expect(tails.slice(1).every((tail, index) => tail === tails[index]! + 1)).toBe(true);
    }
  });

  it('orders ids made in later milliseconds after earlier ones, as their index pages grow at the end', async () => {
    const first = [randomIds.charge(), randomIds.uuid(), randomIds.prefixed('evt')];
    const start = Date.now();
    while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve));
    const second = [randomIds.charge(), randomIds.uuid(), randomIds.prefixed('evt')];
    for (const [index, id] of first.entries()) expect(id < second[index]!).toBe(true);
  });

  it('starts each id with its creation time', () => {
    const before = Date.now();
    const charge = randomIds.charge();
    const uuid = randomIds.uuid();
    const event = randomIds.prefixed('evt');
    const after = Date.now();
    for (const time of [Number(charge.slice(1, 14)), parseInt(uuid.replace(/-/g, '').slice(0, 12), 16), parseInt(event.slice(4, 16), 16)]) {
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(after);
    }
  });
});

describe('timeHex', () => {
  it('writes milliseconds as 12 hex digits, the same millisecond alike and the next one anew', () => {
    expect(timeHex(0)).toBe('000000000000');
    expect(timeHex(0x19abcdef012)).toBe('019abcdef012');
    expect(timeHex(0x19abcdef012)).toBe('019abcdef012');
    expect(timeHex(0x19abcdef013)).toBe('019abcdef013');
    expect(timeHex(2 ** 48 - 1)).toBe('ffffffffffff');
  });
});

describe('requestIdTime', () => {
  it('reads the time a Request-Id carries, and nothing from what is not one', () => {
    const before = Date.now();
    const id = newRequestId();
    const time = requestIdTime(id);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
    expect(requestIdTime(`req_${(1_795_824_943_123).toString(16).padStart(12, '0')}0123456789ab`)).toBe(1_795_824_943_123);
    for (const other of [
      '',
      'req_',
      `${id}0`,
      id.slice(0, -1),
      id.replace('req_', 'evt_'),
      `req_0x${id.slice(6)}`,
      `${id.slice(0, -1)}g`,
      `req_ 19ac3f1a2b30123456789ab`,
      // Number() of a `0x` literal takes both, a Request-Id neither.
      `${id.slice(0, -1)} `,
      `${id.slice(0, 15)} ${id.slice(16)}`,
      id.toUpperCase().replace('REQ_', 'req_'),
    ])
      expect(requestIdTime(other), other).toBeUndefined();
  });
});
