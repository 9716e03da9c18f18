import { TestClockSchema } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceClock,
  authenticateCharge,
  type Client,
  captureCharge,
  client,
  createCharge,
  expectResource,
  readClock,
  retrieveCharge,
  TEST_PANS,
} from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

const SEVEN_DAYS = 7 * 24 * 60 * 60;
const MAX_ADVANCE = 315_360_000;

const ACCOUNTS = ['clock', 'dating', 'invalid', 'maximum', 'exact', 'chargeable', 'write', 'ended', 'mover', 'bystander'] as const;
type AccountName = (typeof ACCOUNTS)[number];

let server: InProcessTestServer;
const apis = new Map<AccountName, Client>();

beforeAll(async () => {
  server = await startInProcess();
  // One account per scenario, so that each clock starts at offset 0 whatever the other tests did.
  const keys = await Promise.all(ACCOUNTS.map((name) => createKeys(server.dataDir, `expiry-${name}`)));
  for (const [index, name] of ACCOUNTS.entries()) apis.set(name, client(server, keys[index]!.secretKey));
});
afterAll(() => server?.stop());

/** Waits for the next second to begin when less than 600 ms of this one are left. */
async function earlyInASecond(): Promise<void> {
  const left = 1000 - (Date.now() % 1000);
  if (left < 600) await new Promise((resolve) => setTimeout(resolve, left + 5));
}

function account(name: AccountName): Client {
  const api = apis.get(name);
  if (!api) throw new Error(`no account ${name}`);
  return api;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('test clock', () => {
  it('starts at offset 0 on the real time, and moves forward by advance_seconds', async () => {
    const api = account('clock');
    const before = nowSeconds();
    const initial = await readClock(api);
    expect(Object.keys(initial).sort()).toEqual(['now', 'offset', 'type']);
    expect(initial.type).toBe('test_clock');
    expect(initial.offset).toBe(0);
    expect(initial.now).toBeGreaterThanOrEqual(before);
    expect(initial.now).toBeLessThanOrEqual(nowSeconds());

    const start = nowSeconds();
    const moved = await advanceClock(api, 3600);
    expect(moved).toMatchObject({ type: 'test_clock', offset: 3600 });
    expect(moved.now).toBeGreaterThanOrEqual(start + 3600);
    expect(moved.now).toBeLessThanOrEqual(nowSeconds() + 3600);

    // JSON numbers are accepted too, and advances add up.
    const json = await api.post('/v2/test_helpers/clock', { advance_seconds: 60 }, { encoding: 'json' });
    expect(expectResource(json, TestClockSchema).offset).toBe(3660);

    const read = await readClock(api);
    expect(read.type).toBe('test_clock');
    expect(read.offset).toBe(3660);
    expect(read.now).toBeGreaterThanOrEqual(start + 3660);
  });

  it('dates new objects on the moved clock', async () => {
    const api = account('dating');
    await advanceClock(api, 86_400);
    const before = nowSeconds() + 86_400;
    const charge = await createCharge(api, TEST_PANS.visa);
    expect(charge.created).toBeGreaterThanOrEqual(before);
    expect(charge.token.created).toBeGreaterThanOrEqual(before);
    expect(charge.created).toBeLessThanOrEqual(nowSeconds() + 86_400);
  });

  it.each([
    ['0', 'PARAMETER_INVALID'],
    ['-1', 'PARAMETER_INVALID'],
    ['-604800', 'PARAMETER_INVALID'],
    [String(MAX_ADVANCE + 1), 'PARAMETER_INVALID'],
    ['1.5', 'PARAMETER_INVALID'],
    ['abc', 'PARAMETER_INVALID'],
  ] as const)('advance_seconds %s → 400 %s, clock unchanged', async (value, code) => {
    const api = account('invalid');
    expectError(await api.post('/v2/test_helpers/clock', { advance_seconds: value }), 400, code, { parameter: 'advance_seconds' });
    expect((await readClock(api)).offset).toBe(0);
  });

  it.each([0, -1, MAX_ADVANCE + 1, 2.5])('advance_seconds as JSON %s → 400 PARAMETER_INVALID', async (value) => {
    const api = account('invalid');
    const response = await api.post('/v2/test_helpers/clock', { advance_seconds: value }, { encoding: 'json' });
    expectError(response, 400, 'PARAMETER_INVALID', { parameter: 'advance_seconds' });
    expect((await readClock(api)).offset).toBe(0);
  });

  it('a missing advance_seconds → 400 PARAMETER_MISSING', async () => {
    const api = account('invalid');
    expectError(await api.post('/v2/test_helpers/clock', {}), 400, 'PARAMETER_MISSING', { parameter: 'advance_seconds' });
  });

  it('accepts exactly the maximum of 315360000 seconds', async () => {
    const api = account('maximum');
    expect((await advanceClock(api, MAX_ADVANCE)).offset).toBe(MAX_ADVANCE);
  });
});

describe('seven-day expiry', () => {
  it('is exact: PENDING at created + 604799 s, REFUNDED / EXPIRED at created + 604800 s', async () => {
    const api = account('exact');
    // The deadline is in the seconds the API shows. Real time keeps running between these
    // requests: they start early in a second, so that it cannot carry the clock into the next.
    await earlyInASecond();
    // A 3-D Secure card, so that the move of 3DS from PENDING to NOT_AVAILABLE shows.
    const charge = await createCharge(api, TEST_PANS.visa3ds, { amount: '700' });
    expect(charge.threedSecure.status).toBe('PENDING');

    const { now } = await readClock(api);
    expect((await advanceClock(api, charge.created + SEVEN_DAYS - 1 - now)).now).toBe(charge.created + SEVEN_DAYS - 1);
    expect(await retrieveCharge(api, charge.id)).toEqual(charge);

    expect((await advanceClock(api, 1)).now).toBe(charge.created + SEVEN_DAYS);
    const expired = await retrieveCharge(api, charge.id);
    expect(expired).toMatchObject({
      id: charge.id,
      status: 'REFUNDED',
      reason: 'EXPIRED',
      amount: 700,
      amount_refunded: 700,
      fees: null,
      threedSecure: { status: 'NOT_AVAILABLE' },
    });
    expect(expired.created).toBe(charge.created);

    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_EXPIRED');
    expectError(await api.post(`/v2/charges/refund/${charge.id}`), 402, 'CHARGE_EXPIRED');
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '700' }), 402, 'CHARGE_EXPIRED');
    expectError(await api.post(`/v2/charges/cancel/${charge.id}`), 402, 'CHARGE_EXPIRED');
    expect(await retrieveCharge(api, charge.id)).toEqual(expired);
  });

  it('expires an authenticated (CHARGEABLE) charge the same way', async () => {
    const api = account('chargeable');
    const charge = await createCharge(api, TEST_PANS.mastercard3ds);
    const auth = await authenticateCharge(api, charge.id, 'success');
    expect(auth.threedSecure.status).toBe('CHARGEABLE');
    await advanceClock(api, SEVEN_DAYS);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({
      status: 'REFUNDED',
      reason: 'EXPIRED',
      amount_refunded: 500,
      threedSecure: { status: 'NOT_AVAILABLE' },
    });
    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_EXPIRED');
  });

  it('applies on the first write after the deadline, not only on reads', async () => {
    const api = account('write');
    const charge = await createCharge(api, TEST_PANS.visa);
    await advanceClock(api, SEVEN_DAYS);
    // No read in between: the capture itself must see the expiry.
    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_EXPIRED');
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED', amount_refunded: 500 });
  });

  it('leaves captured, refunded and canceled charges as they were', async () => {
    const api = account('ended');
    const captured = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
    const partly = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${partly.id}`)).status).toBe(200);
    expect((await api.post(`/v2/charges/refund/${partly.id}`, { amount: '100' })).status).toBe(200);
    const canceled = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/cancel/${canceled.id}`)).status).toBe(200);

    await advanceClock(api, SEVEN_DAYS * 2);
    expect(await retrieveCharge(api, captured.id)).toMatchObject({ status: 'CHARGE_SUCCESS', reason: null, amount_refunded: 0 });
    expect(await retrieveCharge(api, partly.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', reason: null, amount_refunded: 100 });
    expect(await retrieveCharge(api, canceled.id)).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', amount_refunded: 0 });
    // A captured charge can still be refunded after seven days.
    expect((await api.post(`/v2/charges/refund/${captured.id}`)).status).toBe(200);
  });

  it('the clock is per account: another account’s charge and clock are unaffected', async () => {
    const mover = account('mover');
    const bystander = account('bystander');
    const moved = await createCharge(mover, TEST_PANS.visa);
    const untouched = await createCharge(bystander, TEST_PANS.visa);

    await advanceClock(mover, SEVEN_DAYS);
    expect(await retrieveCharge(mover, moved.id)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });

    expect((await readClock(bystander)).offset).toBe(0);
    expect(await retrieveCharge(bystander, untouched.id)).toEqual(untouched);
    expect((await captureCharge(bystander, untouched.id)).status).toBe('CHARGE_SUCCESS');
  });
});
