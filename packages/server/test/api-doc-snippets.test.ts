import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ERROR_CODES, type ErrorCode } from '@payframe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS, tokenParams } from './client.ts';
import { eventually } from './database.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

// Every curl example of docs/api.md runs as written, with the real curl, against a real server:
// the shell variables the page documents are set to fresh objects of the state each example needs.

const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

type Example = { heading: string; script: string; documented: unknown };

function examples(): Example[] {
  const found: Example[] = [];
  let heading = '';
  const blocks = [...doc.matchAll(/^(#{2,3} .*)$|^```(\w*)\n([\s\S]*?)^```$/gm)];
  blocks.forEach((block, index) => {
    if (block[1] !== undefined) {
      heading = block[1].replace(/^#+ /, '');
      return;
    }
    if (block[2] !== 'sh' || !block[3]?.includes('curl ')) return;
    const next = blocks[index + 1];
    if (next?.[2] !== 'json') throw new Error(`docs/api.md: the curl example under "${heading}" has no JSON response right after it`);
    found.push({ heading, script: block[3], documented: JSON.parse(next[3] ?? '') });
  });
  return found;
}

/** Method and path template of an example, as the endpoint table writes them. */
function endpointOf(script: string): string {
  const path = /"\$PAYFRAME_URL(\/[^"]*)"/.exec(script)?.[1] ?? '';
  const method = /-X (\w+)/.exec(script)?.[1] ?? (/ -d /.test(script) ? 'POST' : 'GET');
  return `${method} ${path.replace(/\?.*$/, '').replace(/\$[A-Z_]+/g, ':id')}`;
}

/** Field values that say what an object is or what state it is in: these must match the example exactly. */
const EXACT = new Set(['type', 'status', 'mode', 'code', 'parameter', 'decline_reason', 'reason', 'authorization', 'brand', 'fundingType', 'currency']);

function differences(documented: unknown, actual: unknown, path = '$'): string[] {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(documented) !== kind(actual)) return [`${path}: documented ${kind(documented)}, answered ${kind(actual)}`];
  if (kind(documented) !== 'object') return [];
  const doc = documented as Record<string, unknown>;
  const got = actual as Record<string, unknown>;
  const keys = new Set([...Object.keys(doc), ...Object.keys(got)]);
  return [...keys].flatMap((key) => {
    const at = `${path}.${key}`;
    if (!(key in doc)) return [`${at}: answered but not documented`];
    if (!(key in got)) return [`${at}: documented but not answered`];
    if (EXACT.has(key) && kind(doc[key]) !== 'object' && doc[key] !== got[key]) return [`${at}: documented ${String(doc[key])}, answered ${String(got[key])}`];
    return differences(doc[key], got[key], at);
  });
}

let server: TestServer;
let api: Client;
let secretKey: string;
let curlHome: string;
/** Answers every webhook 200: the examples' events are delivered to it. */
let receiver: Receiver;
let _receiverEndpoint: string | undefined;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'docs')).secretKey;
  api = client(server.url, secretKey);
  // curl reads $CURL_HOME/.curlrc: the examples stay as written, and the status comes out after the body.
  curlHome = mkdtempSync(join(tmpdir(), 'payframe-curl-'));
  writeFileSync(join(curlHome, '.curlrc'), 'silent\nshow-error\nwrite-out = "\\n%{http_code}"\n');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

async function post(path: string, params: Record<string, unknown> = {}): Promise<any> {
  const response = await api.post(path, params);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The ids an example's variables stand for, made fresh in the state its endpoint needs. */
async function variablesFor(script: string): Promise<Record<string, string>> {
  const variables: Record<string, string> = {};
  if (script.includes('$TOKEN_ID')) variables.TOKEN_ID = (await post('/v2/tokens', tokenParams(TEST_PANS.visa))).id;
  if (script.includes('$CHARGE_ID')) {
    const threeDS = script.includes('/authenticate');
    const charge = await createCharge(api, threeDS ? TEST_PANS.visa3ds : TEST_PANS.visa, { txn_reference: 'order-1042' });
    if (script.includes('/charges/refund/$CHARGE_ID')) await post(`/v2/charges/capture/${charge.id}`);
    variables.CHARGE_ID = charge.id;
  }
  if (script.includes('$REFUND_ID')) {
    const charge = await createCharge(api, TEST_PANS.visa);
    await post(`/v2/charges/capture/${charge.id}`);
    variables.REFUND_ID = (await post(`/v2/charges/refund/${charge.id}`, { amount: '500' })).id;
  }
  if (script.includes('$ENDPOINT_ID')) {
    variables.ENDPOINT_ID = (await post('/v2/webhook_endpoints', { url: 'https://shop.example/webhooks/expiry', events: ['charge.expired'] })).id;
  }
  if (script.includes('$EVENT_ID')) {
    // The event is delivered to the test's receiver, so that its deliveries have one to show.
    _receiverEndpoint ??= (await post('/v2/webhook_endpoints', { url: receiver.url, events: ['charge.refunded'] })).id;
    const charge = await createCharge(api, TEST_PANS.visa, { txn_reference: 'order-1042' });
    await post(`/v2/charges/capture/${charge.id}`);
    await post(`/v2/charges/refund/${charge.id}`, { amount: '200' });
    const events = await api.get(`/v2/events?name=charge.refunded&charge=${charge.id}`);
    const id: string = events.body.data[0].id;
    await eventually(
      async () => ((await api.get(`/v2/events/${id}/deliveries`)).body.data[0]?.status === 'succeeded' ? true : undefined),
      10_000,
      `delivery of ${id}`,
    );
    variables.EVENT_ID = id;
  }
  return variables;
}

describe('the curl examples of docs/api.md', () => {
  const all = examples();

  it('cover every /v2 endpoint of the endpoint table', () => {
    const table = [...doc.matchAll(/^\|\s*`(GET|POST|DELETE) (\/v2\/[^`]*)`\s*\|/gm)].map(([, method, path]) => `${method} ${path?.replace(/:\w+/g, ':id')}`);
    // The stream never ends: its example is shown, not run here; test/event-stream.test.ts drives it.
    const endpoints = table.filter((endpoint) => !endpoint.endsWith('/openapi.json') && !endpoint.endsWith('/events/stream'));
    expect(endpoints.length).toBeGreaterThanOrEqual(11);
    expect(new Set(all.map((example) => endpointOf(example.script)))).toEqual(new Set(endpoints));
  });

  it.each(all.map((example) => [example.heading, example] as const))('%s', async (_heading, example) => {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: curlHome,
      CURL_HOME: curlHome,
      PAYFRAME_URL: server.url,
      SECRET_KEY: secretKey,
      ...(await variablesFor(example.script)),
    };
    const { stdout } = await promisify(execFile)('bash', ['-euc', example.script], { env });
    const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
    const answered: unknown = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n')));
    const code = (example.documented as { error?: { code?: ErrorCode } }).error?.code;
    expect(status, JSON.stringify(answered)).toBe(code ? ERROR_CODES[code].status : 200);
    expect(differences(example.documented, answered)).toEqual([]);
  });
});
