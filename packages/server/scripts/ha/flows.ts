import { TEST_CARDS } from '@payframe/contract/test-cards';
import { testCard } from '@payframe/contract/testing';
import { type Payframe, PayframeError } from '@payframe/node';

export type Acknowledged = { chargeId: string; amount: number; at: number };

export type FlowLog = {
  captures: Acknowledged[];
  refunds: Acknowledged[];
  /** Answers that the scenario must never see: anything but success or a retryable 503. */
  wrong: string[];
  /** Idempotent replays of a capture or refund that answered anything but the first answer. */
  replayMismatches: string[];
  flowsStarted: number;
};

const CARD = testCard(TEST_CARDS.visa.number);

/**
 * One merchant's checkout loop: token → charge → capture → refund, each step with its own
 * Idempotency-Key. A step the SDK gave up on after its own retries (503 during the failover) is
 * retried with the same key, as a merchant's job queue would; anything but a 503 is a wrong answer.
 */
export async function runFlows(sdk: Payframe, worker: string, log: FlowLog, running: () => boolean): Promise<void> {
  for (let n = 0; running(); n++) {
    log.flowsStarted += 1;
    const key = `ha-${worker}-${n}`;
    const amount = 500 + n;
    const token = await step(log, `${key} token`, () =>
      sdk.tokens.create({ card: CARD, shopper: { ip: '203.0.113.7', session_id: key, email: 'ada@example.com' } }, { idempotencyKey: `${key}-token` }),
    );
    if (!token) return;
    const charge = await step(log, `${key} charge`, () =>
      sdk.charges.create(
        { token: token.id, amount, currency: 'EUR', description: `HA order ${key}`, return_url: 'https://shop.example/return' },
        { idempotencyKey: `${key}-charge` },
      ),
    );
    if (!charge) return;
    const captured = await step(log, `${key} capture`, () => sdk.charges.capture(charge.id, {}, { idempotencyKey: `${key}-capture` }));
    if (!captured) return;
    if (captured.status !== 'CHARGE_SUCCESS') log.wrong.push(`${key} capture answered 200 with status ${captured.status}`);
    log.captures.push({ chargeId: charge.id, amount, at: Date.now() });
    // The SDK's own retry after a lost answer: the same key must replay the capture, not move money again.
    const again = await step(log, `${key} capture replay`, () => sdk.charges.capture(charge.id, {}, { idempotencyKey: `${key}-capture` }));
    if (again && JSON.stringify(again) !== JSON.stringify(captured)) log.replayMismatches.push(`${key} capture`);
    const refund = await step(log, `${key} refund`, () => sdk.refunds.create(charge.id, {}, { idempotencyKey: `${key}-refund` }));
    if (!refund) return;
    if (refund.amount !== amount) log.wrong.push(`${key} refund answered 200 for ${refund.amount}, not ${amount}`);
    log.refunds.push({ chargeId: charge.id, amount, at: Date.now() });
    const refundAgain = await step(log, `${key} refund replay`, () => sdk.refunds.create(charge.id, {}, { idempotencyKey: `${key}-refund` }));
    if (refundAgain && refundAgain.id !== refund.id) log.replayMismatches.push(`${key} refund`);
  }
}

/** Gives up (undefined) only after a minute of 503s, or at once on any other failure, which it records. */
async function step<T>(log: FlowLog, what: string, call: () => Promise<T>): Promise<T | undefined> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      // The instances never go down: a refused connection or a timeout is as wrong as a 500.
      const retryable = error instanceof PayframeError && error.status === 503 && error.code === 'SERVICE_UNAVAILABLE';
      if (!retryable) {
        log.wrong.push(`${what}: ${error instanceof PayframeError ? `${error.status} ${error.code}` : String(error)}`);
        return undefined;
      }
      if (Date.now() > deadline) {
        log.wrong.push(`${what}: still 503 after a minute`);
        return undefined;
      }
    }
  }
}
