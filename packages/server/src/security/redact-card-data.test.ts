import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_LIKE } from '../logging.ts';
import { REDACTED, redactAnswerText, redactCardData, redactCardNumbers, UUID } from './redact-card-data.ts';

/** The rule as one expression: at each position a UUID first (kept), else a card-like run (replaced). */
const EITHER = new RegExp(`(${UUID})|${CARD_LIKE.source}`, 'g');
const byOneExpression = (text: string) => text.replace(EITHER, (_match, uuid: string | undefined) => uuid ?? REDACTED);

describe('card data kept out of stored requests', () => {
  it('replaces the number and CVC by name, and card numbers anywhere else, keeping the rest', () => {
    const body = {
      card: { number: '4242424242424242', cvc: '0987', exp_month: '12', name: 'Ada' },
      'card[cvc]': '123',
      description: 'paid with 4000 0566 5566 5556',
      tags: ['4111-1111-1111-1111', 'gift'],
      amount: 1000,
    };
    expect(redactCardData(body)).toEqual({
      card: { number: REDACTED, cvc: REDACTED, exp_month: '12', name: 'Ada' },
      'card[cvc]': REDACTED,
      description: `paid with ${REDACTED}`,
      tags: [REDACTED, 'gift'],
      amount: 1000,
    });
    expect(redactCardData({ '4242424242424242': 'x' })).toEqual({ [REDACTED]: 'x' });
  });

  it("replaces a once-shown secret by name: a webhook endpoint's signing secret in the answer that creates it", () => {
    const answer = { type: 'webhook_endpoint', id: 'we_1', url: 'https://shop.example/hooks', secret: 'whsec_abc', events: ['charge.captured'] };
    expect(redactCardData(answer)).toEqual({ ...answer, secret: REDACTED });
    expect(JSON.parse(redactAnswerText(JSON.stringify(answer)))).toEqual({ ...answer, secret: REDACTED });
    expect(redactAnswerText('{"secret": "whsec_a\\"b", "x":1')).toBe(`{"secret":"${REDACTED}", "x":1`);
  });

  it('leaves ids with longer digit runs, amounts and times alone', () => {
    const text = '{"id":"C202611261234567890123456789012345","token":"01a21915-e3cb-7aff-8233-233817921586","amount":1000,"created":1795342555}';
    expect(redactCardNumbers(text)).toBe(text);
    expect(redactCardNumbers('/v2/tokens/4242424242424242')).toBe(`/v2/tokens/${REDACTED}`);
    expect(redactAnswerText(`${text.slice(0, -1)},"note":"4000-0566-5566-5556"}`)).toBe(`${text.slice(0, -1)},"note":"${REDACTED}"}`);
  });

  it('keeps UUIDs and replaces card-like runs exactly as one left-to-right expression would, overlapping UUIDs included', () => {
    // The second UUID begins inside the first, which the scan keeps whole: the digits after it are not kept.
    const overlapping = 'aaaaaaaa-bbbb-cccc-dddd-00000000000a-0000-0000-0000-000000000000';
    expect(redactCardNumbers(overlapping)).toBe(`aaaaaaaa-bbbb-cccc-dddd-00000000000a-${REDACTED}-${REDACTED}`);
    expect(byOneExpression(overlapping)).toBe(redactCardNumbers(overlapping));
    const hex = fc.constantFrom(...'0123456789abcdefABCDEF');
    const group = (length: number) => fc.string({ unit: hex, minLength: length, maxLength: length });
    const uuid = fc.tuple(group(8), group(4), group(4), group(4), group(12)).map((groups) => groups.join('-'));
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 20 });
    const piece = fc.oneof(
      uuid,
      digits,
      fc.constantFrom('-', ' ', '.', '"', ':', ',', 'x', 'C', '4242 4242 4242 4242', '4111-1111-1111-1111', 'aaaaaaaa-bbbb-cccc-dddd-'),
      group(4),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(redactCardNumbers(text)).toBe(byOneExpression(text));
      }),
      { numRuns: 5000 },
    );
  });
});
