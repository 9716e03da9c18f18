import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, chargeParams, type Client, client, TEST_PANS, tokenParams } from './client.ts';
import pg from 'pg';
import { createKeys, startServer, storeArgs, TEST_POSTGRES_URL, type TestServer } from './harness.ts';

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

beforeAll(async () => {
  server = await startServer();
  const keys = await createKeys(server.dataDir, 'card-data');
  secretKey = keys.secretKey;
  publishableKey = keys.publishableKey;
  api = recording(client(server.url, secretKey));
  widget = recording(client(server.url, keys.publishableKey));
});
afterAll(() => server?.stop());

function recording(base: Client): Client {
  const keep = async (response: Promise<ApiResponse>) => {
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
  const response = await api.post('/v2/tokens', withCvc(number, cvc));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  madeIds.push(response.body.id);
  return response.body.id;
}

async function ok(response: Promise<ApiResponse>): Promise<any> {
  const settled = await response;
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  return settled.body;
}

/** All files under the directory, read as bytes. */
function readAll(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(name, readFileSync(path));
  }
  return files;
}

/** The data directory's files and, on PostgreSQL, every table's rows as text: wherever the store keeps data. */
async function readStore(dataDir: string): Promise<Map<string, Buffer>> {
  const files = readAll(dataDir);
  if (!TEST_POSTGRES_URL) return files;
  const args = await storeArgs(dataDir);
  const database = new pg.Client({ connectionString: args[args.indexOf('--database-url') + 1] });
  await database.connect();
  try {
    const { rows: tables } = await database.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
    for (const { name } of tables) {
      const { rows } = await database.query<{ row: string }>(`select row_to_json(t)::text as row from "${name}" t`);
      files.set(`table ${name}`, Buffer.from(rows.map((row) => row.row).join('\n')));
    }
  } finally {
    await database.end();
  }
  return files;
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

describe('card data at rest and in logs', () => {
  let whileRunning: Map<string, Buffer>;

  it('drives tokens and charges for every test card and every kind of failure', async () => {
    // Approved without 3-D Secure: charge, capture, partial refund.
    for (const number of [TEST_PANS.visa, TEST_PANS.mastercardDebit, TEST_PANS.visaDebitIn, OTHER_VISA, SPACED]) {
      const charge = await ok(api.post('/v2/charges', chargeParams(await token(number))));
      await ok(api.post(`/v2/charges/capture/${charge.id}`));
      madeIds.push((await ok(api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }))).id);
    }

    // 3-D Secure cards: authenticate and capture, or fail and cancel, or release uncaptured.
    for (const number of [TEST_PANS.visa3ds, TEST_PANS.mastercard3ds, TEST_PANS.visaFr3ds]) {
      const charge = await ok(api.post('/v2/charges', chargeParams(await token(number))));
      await ok(api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' }));
      await ok(api.post(`/v2/charges/capture/${charge.id}`));
    }
    const failed = await ok(api.post('/v2/charges', chargeParams(await token(TEST_PANS.visa3ds))));
    await ok(api.post(`/v2/test_helpers/charges/${failed.id}/authenticate`, { result: 'failure' }));
    expect((await api.post(`/v2/charges/capture/${failed.id}`)).status).toBe(402);
    await ok(api.post(`/v2/charges/cancel/${failed.id}`));
    const released = await ok(api.post('/v2/charges', chargeParams(await token(TEST_PANS.mastercard3ds))));
    await ok(api.post(`/v2/charges/refund/${released.id}`));

    const maestro = await ok(api.post('/v2/charges', chargeParams(await token(TEST_PANS.maestro3ds))));
    await ok(api.post(`/v2/test_helpers/charges/${maestro.id}/authenticate`, { result: 'success' }));
    await ok(api.post(`/v2/charges/capture/${maestro.id}`));

    // Declines consume the token and store no charge.
    for (const number of [TEST_PANS.declined, TEST_PANS.insufficientFunds, TEST_PANS.expired, TEST_PANS.incorrectCvc]) {
      const declined = await api.post('/v2/charges', chargeParams(await token(number)));
      expect(declined.status, JSON.stringify(declined.body)).toBe(402);
    }

    // Luhn-invalid: refused at token creation.
    const invalid = await api.post('/v2/tokens', withCvc(LUHN_INVALID));
    expect(invalid.status).toBe(402);
    expect(invalid.body.error.code).toBe('INCORRECT_NUMBER');

    // 4-digit CVC, JSON body; 14 digits, multipart body; publishable key (the widget's path).
    const amex = await ok(api.post('/v2/tokens', withCvc(AMEX, CVC_AMEX), { encoding: 'json' }));
    madeIds.push(amex.id);
    await ok(api.post('/v2/charges', chargeParams(amex.id)));
    const diners = await ok(api.post('/v2/tokens', withCvc(DINERS), { encoding: 'multipart' }));
    madeIds.push(diners.id);
    const fromWidget = await ok(widget.post('/v2/tokens', withCvc(JCB), { encoding: 'json' }));
    madeIds.push(fromWidget.id);
    await ok(api.post('/v2/charges', chargeParams(fromWidget.id)));

    // With an Idempotency-Key (its stored response is a token, never the request), replayed once.
    const idempotent = withCvc(IDEMPOTENT);
    const first = await ok(api.post('/v2/tokens', idempotent, { headers: { 'idempotency-key': 'card-data-1' } }));
    const replay = await ok(api.post('/v2/tokens', idempotent, { headers: { 'idempotency-key': 'card-data-1' } }));
    expect(replay.id).toBe(first.id);

    // A token that is never used: its number is kept sealed, never in clear.
    await token(UNUSED);

    // Validation that fails after the number was read.
    const badMonth = await api.post('/v2/tokens', { ...withCvc(BAD_EXP_MONTH), card: { ...withCvc(BAD_EXP_MONTH).card, exp_month: '13' } });
    expect(badMonth.status).toBe(400);
    expect(badMonth.body.error.parameter).toBe('card.exp_month');
    const badEmail = await api.post(
      '/v2/tokens',
      { ...withCvc(BAD_EMAIL), shopper: { ip: '203.0.113.7', session_id: 's', email: 'not-an-email' } },
      { encoding: 'json' },
    );
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error.parameter).toBe('shopper.email');

    // Malformed JSON that carries a number.
    const malformed = await fetch(`${server.url}/v2/tokens`, {
      method: 'POST',
      headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
      body: `{"card":{"number":"${MALFORMED_JSON}","cvc":"${CVC}","exp_month":"12",`,
    });
    const malformedText = await malformed.text();
    received.push(malformedText);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformedText).error.code).toBe('PARAMETER_INVALID');

    // The API never echoed a number or a CVC back.
    expect(received.flatMap(leaksIn)).toEqual([]);

    whileRunning = await readStore(server.dataDir);
  });

  it('leaves no full card number or CVC in the data directory or the output, and master.key is 0600', async () => {
    expect(whileRunning, 'the drive test ran first').toBeDefined();
    await server.stop('SIGTERM');
    const afterStop = await readStore(server.dataDir);

    // The scan is meaningful: there are files, they hold our objects, and the process logged requests.
    expect([...whileRunning.keys()]).toContain(TEST_POSTGRES_URL ? 'table tokens' : 'payframe.sqlite3');
    const everything = [...whileRunning.values(), ...afterStop.values()].map((bytes) => bytes.toString('latin1')).join('\n');
    expect(madeIds.length).toBeGreaterThan(10);
    for (const id of madeIds) expect(everything.includes(id), `object ${id} not found in the data files`).toBe(true);
    const output = server.output();
    expect(output.length).toBeGreaterThan(0);
    expect(output).toContain('payframe ready');
    expect(output).toContain('/v2/tokens');

    expect(leaksInFiles(whileRunning)).toEqual({});
    expect(leaksInFiles(afterStop)).toEqual({});
    expect(leaksIn(output)).toEqual([]);

    expect(statSync(join(server.dataDir, 'master.key')).mode & 0o777).toBe(0o600);

    // API keys too are kept only as hashes and never logged, though every request above carried one.
    for (const key of [secretKey, publishableKey]) {
      expect(everything.includes(key), 'an API key in the store').toBe(false);
      expect(everything.includes(key.slice(8)), 'the random part of an API key in the store').toBe(false);
      expect(output.includes(key.slice(8)), 'an API key in the output').toBe(false);
    }
  });
});
