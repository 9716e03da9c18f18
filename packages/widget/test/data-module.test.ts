// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dataModule } from '../scripts/build.ts';
import { CARD_TABLE } from '../src/frame/card/card-table.ts';
import { COUNTRY_BITS } from '../src/frame/fields/country-codes.ts';
import { MESSAGES } from '../src/frame/i18n/messages.ts';
import { FRAME_SHAPES } from '../src/protocol/frame-shapes.ts';

describe('the data the build puts in the frame for the evaluated modules', () => {
  it('reads back as the very values the modules export, shared parts included', async () => {
    const code = dataModule([
      ['FRAME_SHAPES', FRAME_SHAPES],
      ['CARD_TABLE', CARD_TABLE],
      ['COUNTRY_BITS', COUNTRY_BITS],
      ['MESSAGES', MESSAGES],
    ]);
    expect(code).toMatch(/^const shared0 = /);
    const loaded = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as Record<string, unknown>;
    expect({ ...loaded }).toEqual({ FRAME_SHAPES, CARD_TABLE, COUNTRY_BITS, MESSAGES });
    expect(JSON.stringify(loaded.FRAME_SHAPES)).toBe(JSON.stringify(FRAME_SHAPES));
    expect(JSON.stringify(loaded.MESSAGES)).toBe(JSON.stringify(MESSAGES));
    // The four locales' error texts share one list of keys.
    expect(code.match(/zip\(keys\d+/g)?.length).toBeGreaterThanOrEqual(8);
    expect(code.split('"numberIncomplete"')).toHaveLength(2);
  });
});
