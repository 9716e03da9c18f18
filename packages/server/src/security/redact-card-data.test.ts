import { describe, expect, it } from 'vitest';
import { REDACTED, redactAnswerText, redactCardData, redactCardNumbers } from './redact-card-data.ts';

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
});
