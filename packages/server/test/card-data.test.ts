import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ChargeSchema, RefundSchema, TokenSchema } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, type Client, chargeParams, client, expectResource, TEST_PANS, tokenParams } from './client.ts';
import { untilRequestLogged } from './database.ts';
import { createKeys, startServer, TEST_POSTGRES_URL, type TestServer } from './harness.ts';
import { readStore } from './store-contents.ts';

/**
 * Card data at rest and in logs (docs/security.md "Card data"): after every kind of request that carries a card
 * number, the full number and the CVC are found in no file of the data directory and in no line
 * the process printed. BIN (first 6) and last 4 are legitimately kept, so only full numbers are searched.
 */

/** CVCs distinctive enough to search for: a leading zero never starts a pid, port, time or JSON number. */
const CVC = '0987';
const CVC_AMEX = '0753';
const CVCS = [CVC, CVC_AMEX];

const LUHN_INVALID = '4242424242424241';
/** Stripe's Visa debit test number, sent with spaces: the server strips them. */
const SPACED = '4000 0566 5566 5556';
const SPACED_DIGITS = SPACED.replaceAll(' ', '');
const OTHER_VISA = '4111111111111111';
const AMEX = '378282246310005';
const DINERS = '30569309025904';
const JCB = '3566002020360505';
const UNUSED = '5200828282828210';
/** Sent in requests that fail validation after the number was read. */
const BAD_EXP_MONTH = '5105105105105100';
const BAD_EMAIL = '4012888888881881';
const MALFORMED_JSON = '6011111111111117';
const IDEMPOTENT = '5200000000001096';
/** Put where no card number belongs: inside a list filter's value, and inside an id in the path. */
const IN_URL = '4000056655665556';
const IN_URL_DOTTED = '4000.0566.5566.5556';

/** Every full number this file sends, in every spelling it was sent. */
const SENT_NUMBERS = [
  ...Object.values(TEST_PANS),
  LUHN_INVALID,
  SPACED,
  SPACED_DIGITS,
  SPACED.replaceAll(' ', '+'),
  OTHER_VISA,
  AMEX,
  DINERS,
  JCB,
  UNUSED,
  BAD_EXP_MONTH,
  BAD_EMAIL,
  MALFORMED_JSON,
  IDEMPOTENT,
  IN_URL,
  IN_URL_DOTTED,
];

let server: TestServer;
let secretKey: string;
let publishableKey: string;
let api: Client;
let widget: Client;
/** Every response body this file received, to check the API never echoes card data either. */
const received: string[] = [];
/** Ids of objects made here: the scanner must find these, or it proves nothing. */
const madeIds: string[] = [];
/** A charge whose id (33 digits after its C) the request log must still show: a long digit run is no card number. */
let releasedCharge = '';

/** What the scan reads: the store while the server runs and after it stopped, and everything it printed. */
let whileRunning: Map<string, Buffer>;
let afterStop: Map<string, Buffer>;
let output: string;

// Every test below reads the same scan: one server driven through every card flow, then stopped.
beforeAll(async () => {
  server = await startServer();
  const keys = await createKeys(server.dataDir, 'card-data');
  secretKey = keys.secretKey;
  publishableKey = keys.publishableKey;
  api = recording(client(server.url, secretKey));
  widget = recording(client(server.url, keys.publishableKey));
  await driveEveryCardFlow();
  // The request log writes off the request's path: the scan starts once it holds the last answer.
  await untilRequestLogged(server.dataDir, await api.get('/v2/charges?limit=1'));
  whileRunning = await readStore(server.dataDir);
  await server.stop('SIGTERM');
  afterStop = await readStore(server.dataDir);
  output = server.output();
});
afterAll(() => server?.stop());

function recording(base: Client): Client {
  const keep = async <T>(response: Promise<ApiResponse<T>>) => {
    const settled = await response;
    received.push(JSON.stringify(settled.body ?? null));
    return settled;
  };
  return {
    get: (path, options) => keep(base.get(path, options)),
    post: (path, params, options) => keep(base.post(path, params, options)),
    request: (method, path, params, options) => keep(base.request(method, path, params, options)),
  };
}

function withCvc(number: string, cvc = CVC) {
  const params = tokenParams(number) as { card: Record<string, string> };
  return { ...params, card: { ...params.card, cvc } };
}

async function token(number: string, cvc = CVC): Promise<string> {
  const { id } = expectResource(await api.post('/v2/tokens', withCvc(number, cvc)), TokenSchema);
  madeIds.push(id);
  return id;
}

async function charge(token: string): Promise<string> {
  return expectResource(await api.post('/v2/charges', chargeParams(token)), ChargeSchema).id;
}

/** A 200 from a charge's action (capture, cancel, authenticate); what it returns is checked elsewhere. */
async function act(path: string, params?: Record<string, string>): Promise<void> {
  expectResource(await api.post(path, params), ChargeSchema);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where a secret occurs in the text. Card numbers are searched bare; a CVC is short, so it counts
 * only where it stands alone (not inside a longer run of digits, hex, base64 or a UUID group).
 */
function leaksIn(text: string): string[] {
  const found = SENT_NUMBERS.filter((number) => text.includes(number));
  for (const cvc of CVCS) {
    if (new RegExp(`(?<![0-9A-Za-z.+/_-])${escapeRegExp(cvc)}(?![0-9A-Za-z.+/_-])`).test(text)) found.push(`cvc ${cvc}`);
  }
  return found;
}

function leaksInFiles(files: Map<string, Buffer>): Record<string, string[]> {
  const leaks: Record<string, string[]> = {};
  for (const [name, bytes] of files) {
    // latin1 maps each byte to one character, so ASCII digits are found wherever they lie in binary pages.
    const found = leaksIn(bytes.toString('latin1'));
    if (found.length > 0) leaks[name] = found;
  }
  return leaks;
}

/** Tokens and charges for every test card and every kind of failure, through every encoding and both keys. */
async function driveEveryCardFlow(): Promise<void> {
  // Approved without 3-D Secure: charge, capture, partial refund.
  for (const number of [TEST_PANS.visa, TEST_PANS.mastercardDebit, TEST_PANS.visaDebitIn, OTHER_VISA, SPACED]) {
    const id = await charge(await token(number));
    await act(`/v2/charges/capture/${id}`);
    madeIds.push(expectResource(await api.post(`/v2/charges/refund/${id}`, { amount: '100' }), RefundSchema).id);
  }

  // 3-D Secure cards: authenticate and capture, or fail and cancel, or release uncaptured.
  for (const number of [TEST_PANS.visa3ds, TEST_PANS.mastercard3ds, TEST_PANS.visaFr3ds, TEST_PANS.maestro3ds]) {
    const id = await charge(await token(number));
    await act(`/v2/test_helpers/charges/${id}/authenticate`, { result: 'success' });
    await act(`/v2/charges/capture/${id}`);
  }
  const failed = await charge(await token(TEST_PANS.visa3ds));
  await act(`/v2/test_helpers/charges/${failed}/authenticate`, { result: 'failure' });
  expectError(await api.post(`/v2/charges/capture/${failed}`), 402, 'AUTHENTICATION_FAILED');
  await act(`/v2/charges/cancel/${failed}`);
  const released = await charge(await token(TEST_PANS.mastercard3ds));
  releasedCharge = released;
  expectResource(await api.post(`/v2/charges/refund/${released}`), RefundSchema);

  // Declines consume the token and store no charge.
  for (const number of [TEST_PANS.declined, TEST_PANS.insufficientFunds, TEST_PANS.expired, TEST_PANS.incorrectCvc]) {
    const declined = await api.post('/v2/charges', chargeParams(await token(number)));
    expect(declined.status, JSON.stringify(declined.body)).toBe(402);
  }

  // Luhn-invalid: refused at token creation.
  expectError(await api.post('/v2/tokens', withCvc(LUHN_INVALID)), 402, 'INCORRECT_NUMBER');

  // 4-digit CVC, JSON body; 14 digits, multipart body; publishable key (the widget's path).
  const amex = expectResource(await api.post('/v2/tokens', withCvc(AMEX, CVC_AMEX), { encoding: 'json' }), TokenSchema);
  madeIds.push(amex.id);
  await charge(amex.id);
  const diners = expectResource(await api.post('/v2/tokens', withCvc(DINERS), { encoding: 'multipart' }), TokenSchema);
  madeIds.push(diners.id);
  const fromWidget = expectResource(await widget.post('/v2/tokens', withCvc(JCB), { encoding: 'json' }), TokenSchema);
  madeIds.push(fromWidget.id);
  await charge(fromWidget.id);

  // With an Idempotency-Key (its stored response is a token, never the request), replayed once.
  const idempotent = withCvc(IDEMPOTENT);
  const first = expectResource(await api.post('/v2/tokens', idempotent, { headers: { 'idempotency-key': 'card-data-1' } }), TokenSchema);
  const replay = expectResource(await api.post('/v2/tokens', idempotent, { headers: { 'idempotency-key': 'card-data-1' } }), TokenSchema);
  expect(replay.id).toBe(first.id);

  // A token that is never used: its number is kept sealed, never in clear.
  await token(UNUSED);

  // Validation that fails after the number was read.
  const badMonth = withCvc(BAD_EXP_MONTH);
  expectError(await api.post('/v2/tokens', { ...badMonth, card: { ...badMonth.card, exp_month: '13' } }), 400, 'PARAMETER_INVALID', {
    parameter: 'card.exp_month',
  });
  const badEmail = { ...withCvc(BAD_EMAIL), shopper: { ip: '203.0.113.7', session_id: 's', email: 'not-an-email' } };
  expectError(await api.post('/v2/tokens', badEmail, { encoding: 'json' }), 400, 'PARAMETER_INVALID', { parameter: 'shopper.email' });

  // Malformed JSON that carries a number.
  const malformed = await fetch(`${server.url}/v2/tokens`, {
    method: 'POST',
    headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
    body: `{"card":{"number":"${MALFORMED_JSON}","cvc":"${CVC}","exp_month":"12",`,
  });
  const malformedText = await malformed.text();
  received.push(malformedText);
  expectError({ status: malformed.status, body: JSON.parse(malformedText) }, 400, 'PARAMETER_INVALID');

  // In a URL, inside longer values: the request log shows none of them.
  for (const query of [`txn_reference=card:${IN_URL}`, `txn_reference=order${IN_URL}`, `email=${IN_URL}@example.com`, `txn_reference=${IN_URL_DOTTED}`]) {
    expect((await api.get(`/v2/charges?${query}`)).status, query).toBe(200);
  }
  expect((await api.get(`/v2/tokens/tok${IN_URL}`)).status).toBe(404);
}

describe('card data at rest and in logs', () => {
  it('never echoes a card number or CVC in an API response', () => {
    expect(received.length).toBeGreaterThan(40);
    expect(received.flatMap(leaksIn)).toEqual([]);
  });

  it('scans something: the store holds every object made, and the process logged the requests', () => {
    expect([...whileRunning.keys()]).toContain(TEST_POSTGRES_URL ? 'table tokens' : 'payframe.sqlite3');
    const everything = storeText();
    expect(madeIds.length).toBeGreaterThan(10);
    for (const id of madeIds) expect(everything.includes(id), `object ${id} not found in the data files`).toBe(true);
    expect(output).toContain('payframe ready');
    expect(output).toContain('/v2/tokens');
    expect(output).toContain(`/v2/charges/refund/${releasedCharge}`);
  });

  it('leaves no full card number or CVC in the store, while running or after stopping', () => {
    expect(leaksInFiles(whileRunning)).toEqual({});
    expect(leaksInFiles(afterStop)).toEqual({});
  });

  it('prints no full card number or CVC', () => {
    expect(output.length).toBeGreaterThan(0);
    expect(leaksIn(output)).toEqual([]);
  });

  it('keeps master.key at mode 0600', () => {
    expect(statSync(join(server.dataDir, 'master.key')).mode & 0o777).toBe(0o600);
  });

  it('keeps API keys only as hashes and never logs them, though every request carried one', () => {
    const everything = storeText();
    for (const key of [secretKey, publishableKey]) {
      expect(everything.includes(key), 'an API key in the store').toBe(false);
      expect(everything.includes(key.slice(8)), 'the random part of an API key in the store').toBe(false);
      expect(output.includes(key.slice(8)), 'an API key in the output').toBe(false);
    }
  });
});

function storeText(): string {
  return [...whileRunning.values(), ...afterStop.values()].map((bytes) => bytes.toString('latin1')).join('\n');
}
