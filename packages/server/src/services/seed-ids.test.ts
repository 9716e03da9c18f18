import { describe, expect, it } from 'vitest';
import { ascendingIds } from './seed-ids.ts';

describe('ascendingIds', () => {
  it("keeps the server's formats, ascends within a seed and differs between seeds", () => {
    const ids = ascendingIds();
    const charges = Array.from({ length: 20 }, () => ids.charge());
    const uuids = Array.from({ length: 20 }, () => ids.uuid());
    const events = Array.from({ length: 20 }, () => ids.prefixed('evt'));
    for (const id of charges) expect(id).toMatch(/^C\d{20}$/);
    for (const id of uuids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const id of events) expect(id).toMatch(/^evt_[0-9a-f]{24}$/);
    for (const list of [charges, uuids, events]) expect([...list].sort()).toEqual(list);
    expect(new Set([...charges, ...uuids, ...events]).size).toBe(60);
    const other = ascendingIds();
    expect(other.charge()).not.toBe(ascendingIds().charge());
    expect(other.uuid().slice(0, 24)).not.toBe(uuids[0]!.slice(0, 24));
  });
});
