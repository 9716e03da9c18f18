import { describe, expect, it } from 'vitest';
import { randomIds } from '../ids.ts';
import { ascendingIds } from './seed-ids.ts';

/** The server's id formats, as ids.ts writes them. */
const CHARGE = /^C\d{33}$/;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EVENT = /^evt_[0-9a-f]{24}$/;

describe('ascendingIds', () => {
  it("makes the server's formats, ascends within a seed and differs between seeds", () => {
    const ids = ascendingIds();
    const charges = Array.from({ length: 20 }, () => ids.charge());
    const uuids = Array.from({ length: 20 }, () => ids.uuid());
    const events = Array.from({ length: 20 }, () => ids.prefixed('evt'));
    for (const id of charges) expect(id).toMatch(CHARGE);
    for (const id of uuids) expect(id).toMatch(UUID_V7);
    for (const id of events) expect(id).toMatch(EVENT);
    for (const list of [charges, uuids, events]) expect([...list].sort()).toEqual(list);
    expect(new Set([...charges, ...uuids, ...events]).size).toBe(60);
    const other = ascendingIds();
    expect(other.charge()).not.toBe(ascendingIds().charge());
    expect(other.uuid().slice(0, 24)).not.toBe(uuids[0]?.slice(0, 24));
  });

  it("matches the server's own ids in format, and carries the seed's start as their time", () => {
    const start = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const seeded = ascendingIds(start);
    const charge = seeded.charge();
    const uuid = seeded.uuid();
    const event = seeded.prefixed('evt');
    expect([charge.length, uuid.length, event.length]).toEqual([randomIds.charge().length, randomIds.uuid().length, randomIds.prefixed('evt').length]);
    expect(randomIds.charge()).toMatch(CHARGE);
    expect(randomIds.uuid()).toMatch(UUID_V7);
    expect(randomIds.prefixed('evt')).toMatch(EVENT);
    expect(charge.slice(1, 14)).toBe(String(start));
    expect(uuid.replace(/-/g, '').slice(0, 12)).toBe(start.toString(16).padStart(12, '0'));
    expect(event.slice(4, 16)).toBe(start.toString(16).padStart(12, '0'));
  });
});
