import type { Payframe } from '@payframe/node';
import type { FlowLog } from './flows.ts';

export type Findings = {
  capturesChecked: number;
  refundsChecked: number;
  lostCaptures: string[];
  lostRefunds: string[];
  /** Charges with more than one capture or refund event, or refunds summing past the charge. */
  movedTwice: string[];
  events: number;
};

/** After the failover, asks the API (through the new primary) for every acknowledged write. */
export async function checkNothingLost(sdk: Payframe, log: FlowLog): Promise<Findings> {
  const refunded = new Set(log.refunds.map((refund) => refund.chargeId));
  const findings: Findings = { capturesChecked: 0, refundsChecked: 0, lostCaptures: [], lostRefunds: [], movedTwice: [], events: 0 };
  for (const capture of log.captures) {
    const charge = await sdk.charges.retrieve(capture.chargeId);
    findings.capturesChecked += 1;
    const expected = refunded.has(capture.chargeId) ? ['REFUNDED'] : ['CHARGE_SUCCESS', 'REFUNDED'];
    if (!expected.includes(charge.status)) findings.lostCaptures.push(`${capture.chargeId}: ${charge.status}`);
  }
  for (const refund of log.refunds) {
    const refunds = await sdk.refunds.list({ charge: refund.chargeId, limit: 100 });
    findings.refundsChecked += 1;
    const total = refunds.data.reduce((sum, item) => sum + item.amount, 0);
    if (refunds.data.length === 0) findings.lostRefunds.push(refund.chargeId);
    if (refunds.data.length > 1 || total > refund.amount)
      findings.movedTwice.push(`${refund.chargeId}: ${refunds.data.length} refunds, ${total} of ${refund.amount}`);
  }
  // Every charge there is, acknowledged or not: none captured or refunded twice.
  const perCharge = new Map<string, Map<string, number>>();
  for await (const event of sdk.events.list({ limit: 100 })) {
    findings.events += 1;
    const chargeId = (event.data.object as { id: string }).id;
    const names = perCharge.get(chargeId) ?? new Map<string, number>();
    names.set(event.name, (names.get(event.name) ?? 0) + 1);
    perCharge.set(chargeId, names);
  }
  for (const [chargeId, names] of perCharge) {
    for (const name of ['charge.captured', 'charge.refunded', 'charge.created']) {
      if ((names.get(name) ?? 0) > 1) findings.movedTwice.push(`${chargeId}: ${names.get(name)} ${name} events`);
    }
  }
  return findings;
}

/** Every event id the API lists, for the at-least-once check. */
export async function allEventIds(sdk: Payframe): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of sdk.events.list({ limit: 100 })) ids.push(event.id);
  return ids;
}
