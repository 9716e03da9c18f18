import { type Charge, type EventName, PayframeError } from '@payframe/contract';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { CHARGE_EXPIRY_MS, type ChargeEvent, settle, transition } from '../domain/charge-lifecycle.ts';
import { addDeltas, changeDeltas, utcDay } from '../domain/overview.ts';
import { cardFingerprint } from '../security/fingerprint.ts';
import { ensureAccount } from '../storage/repositories/api-keys.ts';
import { analyzeAfterBulkLoad, insertSeedBatch, prepareBulkLoad, type SeedBatch } from '../storage/repositories/seed.ts';
import type { RefundsTable, TokensTable } from '../storage/schema.ts';
import { chargeView, refundView } from './api-resources.ts';
import { newChargeRow, toState, withState } from './charges.ts';
import type { ServiceDeps, Store } from './context.ts';
import { newEvent } from './events.ts';

/**
 * Charges per transaction: large, because e-mails recur at random, so each transaction dirties
 * pages all over the e-mail index, and each such page costs a write to the WAL and to the database
 * whatever the number of rows it took (at 1,000,000 charges, 10,000 per transaction wrote 22 GB).
 * Held in memory, a batch is a few hundred MB.
 */
const CHARGES_PER_TRANSACTION = 50_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Seeded charges were created over this many past days, so that many have expired. */
const HISTORY_DAYS = 60;

const CARDS = Object.values(TEST_CARDS).filter((card) => card.outcome.approved);
const CURRENCIES: Array<[string, number]> = [
  ['EUR', 2500],
  ['USD', 4200],
  ['GBP', 1800],
  ['JPY', 3000],
  ['CHF', 9900],
];

/** What becomes of a seeded charge; the weights give a realistic mix. */
type Fate = 'pending' | 'captured' | 'partially-refunded' | 'refunded' | 'released' | 'canceled' | 'expired';
const FATES: Array<[Fate, number]> = [
  ['captured', 45],
  /** Pending or expired, whichever its age makes it. */
  ['pending', 22],
  ['partially-refunded', 8],
  ['refunded', 8],
  ['released', 5],
  ['canceled', 12],
];
const FATE_TABLE = FATES.flatMap(([fate, weight]) => Array<Fate>(weight).fill(fate));

/** `cpuMs`: this process's CPU time, the figure that stays meaningful on a busy machine. */
export type SeedResult = { account: string; charges: number; events: number; refunds: number; ms: number; cpuMs: number };

/**
 * Fills a test-mode account with charges as if shoppers and the merchant had made them: tokens,
 * charges moved through the one lifecycle, their refunds and every event, in large transactions.
 */
export async function seedCharges(store: Store, deps: ServiceDeps, account: string, count: number, realNow: number): Promise<SeedResult> {
  if (!Number.isSafeInteger(count) || count < 1) throw new PayframeError('PARAMETER_INVALID', 'The number of charges must be a positive integer.');
  const started = Date.now();
  const cpu = process.cpuUsage();
  await store.read(prepareBulkLoad);
  const accountId = await store.transaction((tx) => ensureAccount(tx, { id: deps.ids.uuid(), name: account, createdAt: realNow }));
  const fingerprints = new Map(CARDS.map((card) => [card.number, cardFingerprint(deps.secrets.fingerprintKey, card.number)]));
  let events = 0;
  let refunds = 0;
  for (let done = 0; done < count; done += CHARGES_PER_TRANSACTION) {
    const batch: SeedBatch = { tokens: [], charges: [], refunds: [], events: [], overview: new Map() };
    for (let index = done; index < Math.min(count, done + CHARGES_PER_TRANSACTION); index++) {
      seedOne(batch, deps, { accountId, index, count, realNow, fingerprints });
    }
    // In time order, as the server would have recorded them: a charge's later moves come after younger charges' creation.
    batch.events.sort((a, b) => a.created_at - b.created_at);
    await store.transaction((tx) => insertSeedBatch(tx, batch, { accountId, mode: 'test' }));
    events += batch.events.length;
    refunds += batch.refunds.length;
  }
  await store.read(analyzeAfterBulkLoad);
  const used = process.cpuUsage(cpu);
  return { account, charges: count, events, refunds, ms: Date.now() - started, cpuMs: Math.round((used.user + used.system) / 1000) };
}

type SeedContext = { accountId: string; index: number; count: number; realNow: number; fingerprints: Map<string, string> };

function seedOne(batch: SeedBatch, deps: ServiceDeps, context: SeedContext): void {
  const { accountId, index, count, realNow } = context;
  const random = mulberry32(index);
  const card = CARDS[index % CARDS.length]!;
  const [currency, typicalAmount] = CURRENCIES[Math.floor(random() * CURRENCIES.length)]!;
  const amount = Math.max(100, Math.round(typicalAmount * (0.2 + 2 * random())));
  // Charges are made oldest first, so every index by creation time grows at its end; more of them
  // are recent (age falls with the square of the position), as in a growing shop.
  const position = 1 - index / count;
  const createdAt = Math.floor(realNow - position * position * HISTORY_DAYS * DAY_MS - 4 * 60 * 60 * 1000);
  // Room before now for the moves after creation (each within about an hour); an unsettled
  // charge past its deadline has expired, one before it is still pending.
  const drawn = FATE_TABLE[Math.floor(random() * FATE_TABLE.length)]!;
  const fate: Fate = drawn === 'pending' && createdAt + CHARGE_EXPIRY_MS + 60_000 <= realNow ? 'expired' : drawn;
  const email = `shopper${Math.floor(random() * 20_000)}@${index % 7 === 0 ? 'Example.COM' : 'example.com'}`;
  const token: TokensTable = {
    id: deps.ids.uuid(),
    account_id: accountId,
    mode: 'test',
    created_at: createdAt - 30_000,
    used_at: createdAt,
    brand: card.brand,
    funding: card.funding,
    country: card.country,
    bank: card.bank,
    authorization: card.authorization,
    bin: card.number.slice(0, 6),
    last4: card.number.slice(-4),
    exp_month: 1 + (index % 12),
    exp_year: new Date(realNow).getUTCFullYear() + 1 + (index % 4),
    fingerprint: context.fingerprints.get(card.number)!,
    card_secret: null,
    name: `Shopper ${index}`,
    address_line1: null,
    address_line2: null,
    address_city: null,
    address_state: null,
    address_zip: null,
    address_country: card.country,
    shopper_ip: `198.51.100.${index % 250}`,
    shopper_session_id: `seed-session-${index}`,
    shopper_email: email,
  };
  const input = {
    amount,
    currency,
    description: `Order #${100_000 + index}`,
    ...(index % 10 === 9 ? {} : { txn_reference: `order-${100_000 + index}` }),
    return_url: 'https://shop.example/return',
  };
  let charge = newChargeRow(deps.ids.charge(), { accountId, mode: 'test' }, token, input, createdAt);
  batch.tokens.push(token);
  // The view once per charge (its 3-D Secure link costs an HMAC); each event then takes the fields a move changes.
  const created = chargeView(charge, token, deps);
  const view = (): Charge => ({
    ...created,
    amount_captured: charge.amount_captured,
    amount_refunded: charge.amount_refunded,
    fees: charge.fees,
    threedSecure: { ...created.threedSecure, status: charge.threeds_status, transStatus: charge.threeds_trans_status },
    status: charge.status,
    reason: charge.reason,
  });
  const record = (name: EventName, at: number, refund?: RefundsTable) => {
    const object = view();
    const refunded = refund ? refundView(refund) : undefined;
    const input = { accountId, mode: 'test' as const, name, at, charge: object };
    batch.events.push(newEvent(deps, refunded ? { ...input, refund: refunded } : input).row);
    // The home page's counters, summed per day over the batch and written with it.
    const day = utcDay(at);
    const counters = batch.overview.get(day) ?? new Map();
    batch.overview.set(day, counters);
    addDeltas(counters, changeDeltas(name, object, refunded));
  };
  record('charge.created', createdAt);

  let at = createdAt;
  const move = (event: ChargeEvent, name: EventName): number => {
    at += 60_000 + Math.floor(random() * 3_600_000);
    const result = transition(toState(charge), event, at);
    if (!result.ok) throw new Error(`seed: ${result.error.code} for a ${fate} charge`);
    charge = { ...withState(charge, result.charge), updated_at: at, version: charge.version + 1 };
    if (name !== 'charge.refunded') record(name, at);
    return result.refunded;
  };
  const refund = (requested: number | undefined) => {
    const refunded = move({ type: 'refund', amount: requested }, 'charge.refunded');
    const row: RefundsTable = {
      id: deps.ids.uuid(),
      account_id: accountId,
      mode: 'test',
      charge_id: charge.id,
      amount: refunded,
      currency,
      fee_refunded: 0,
      created_at: at,
      metadata: '{}',
    };
    batch.refunds.push(row);
    record('charge.refunded', at, row);
  };
  const authenticated = () => {
    if (charge.threeds_status === 'PENDING') move({ type: 'authenticate', result: 'success' }, 'charge.authentication_succeeded');
  };

  if (fate === 'expired') {
    // Recorded by the sweeper within a minute of the deadline.
    at = createdAt + CHARGE_EXPIRY_MS + Math.floor(random() * 60_000);
    charge = { ...withState(charge, settle(toState(charge), at)), updated_at: at, version: 2 };
    record('charge.expired', at);
  } else if (fate === 'pending') {
    if (random() < 0.5) authenticated();
  } else if (fate === 'canceled') {
    move({ type: 'cancel' }, 'charge.canceled');
  } else if (fate === 'released') {
    authenticated();
    refund(undefined);
  } else {
    authenticated();
    move({ type: 'capture', fees: deps.fees }, 'charge.captured');
    if (fate === 'partially-refunded') refund(Math.max(1, Math.floor(charge.amount * random() * 0.9)));
    if (fate === 'refunded') refund(undefined);
  }
  batch.charges.push(charge);
}

/** A small seeded generator: the same index gives the same charge, and Math.random stays out of it. */
function mulberry32(seed: number): () => number {
  let state = seed + 0x6d2b79f5;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
