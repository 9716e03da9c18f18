/**
 * The load: workers looping one scenario against the instances until the deadline, over
 * keep-alive connections with form bodies encoded once. `flow` is token → charge → capture; `get`
 * reads charges made before the run; `tokens` creates tokens. A "flow" below is one scenario loop.
 */
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { Pool } from 'undici';

/** Past this many errors the server is broken, not slow: stop instead of spinning on failures. */
export const MAX_ERRORS = 1_000;
const REQUEST_TIMEOUT_MS = 10_000;

type Reply = { status: number; body: string };

/**
 * Through undici's Pool: it costs the load generator 0.06 ms of CPU per request on this host where
 * node:http's ClientRequest cost 0.15 ms, more than a bare Node server spends answering one; on two
 * cores shared with the server, that CPU was taken from the server being measured.
 */
export function apiClient(baseUrl: string, apiKey: string, concurrency: number) {
  const pool = new Pool(new URL(baseUrl).origin, { connections: concurrency, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
  const getHeaders = { 'x-api-key': apiKey };
  const formHeaders = { 'x-api-key': apiKey, 'content-type': 'application/x-www-form-urlencoded' };

  async function send(method: 'GET' | 'POST', path: string, form?: string): Promise<Reply> {
    const headers = form ? formHeaders : getHeaders;
    // A POST without a form still says Content-Length: 0, as node:http's did.
    const body = method === 'POST' ? (form ?? '') : null;
    const response = await pool.request({ method, path, headers, body });
    return { status: response.statusCode, body: await response.body.text() };
  }
  return { post: (path: string, form?: string) => send('POST', path, form), get: (path: string) => send('GET', path), close: () => void pool.close() };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** The frictionless test card (3-D Secure NOT_AVAILABLE), so a charge can be captured at once. */
export const TOKEN_FORM = new URLSearchParams({
  'card[number]': TEST_CARDS.visa.number,
  'card[cvc]': '123',
  'card[exp_month]': '12',
  'card[exp_year]': String(new Date().getUTCFullYear() + 3),
  'card[name]': 'Ada Lovelace',
  'shopper[ip]': '203.0.113.7',
  'shopper[session_id]': 'bench-session',
  'shopper[email]': 'ada@example.com',
}).toString();

export function chargeForm(token: string): string {
  return new URLSearchParams({
    token,
    amount: '500',
    currency: 'eur',
    description: 'Bench order',
    return_url: 'https://shop.example/return',
  }).toString();
}

export const ENDPOINTS = ['POST /v2/tokens', 'POST /v2/charges', 'POST /v2/charges/capture/:id', 'GET /v2/charges/:id'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** Everything one run records; latencies in milliseconds. */
export type Recorder = {
  flows: number[];
  endpoints: Record<Endpoint, number[]>;
  /** By instance: every request's latency, and its failures. */
  instances: { latencies: number[]; errors: number }[];
  errors: number;
  firstError: string | null;
};

function newRecorder(instances: number): Recorder {
  const endpoints = Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, []])) as unknown as Recorder['endpoints'];
  return { flows: [], endpoints, instances: Array.from({ length: instances }, () => ({ latencies: [], errors: 0 })), errors: 0, firstError: null };
}

class StepFailed extends Error {}

/** Which instance a request goes to. */
type Target = { instance: number; api: ApiClient };

/**
 * Worker w sends its k-th request to instance (w + k) mod N: every instance gets the same share,
 * and consecutive steps of a flow land on different instances (a charge made on one is captured
 * on another), so nothing can lean on per-process state.
 */
function roundRobin(apis: ApiClient[], worker: number): () => Target {
  let sent = worker;
  return () => {
    const instance = sent++ % apis.length;
    const api = apis[instance];
    if (!api) throw new Error(`no client for instance ${instance}`);
    return { instance, api };
  };
}

/** One request, timed; anything but a 200 fails the flow. */
async function step(record: Recorder, endpoint: Endpoint, target: Target, send: (api: ApiClient) => Promise<Reply>): Promise<string> {
  const started = performance.now();
  const reply = await send(target.api).catch((error: Error) => ({ status: 0, body: `network error: ${error.message}` }));
  const elapsed = performance.now() - started;
  const instance = record.instances[target.instance];
  record.endpoints[endpoint].push(elapsed);
  instance?.latencies.push(elapsed);
  if (reply.status !== 200) {
    record.errors += 1;
    if (instance) instance.errors += 1;
    record.firstError ??= `${endpoint} on instance ${target.instance + 1} → ${reply.status} ${reply.body}`;
    throw new StepFailed();
  }
  return reply.body;
}

const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;

/** One loop of a scenario: its steps, in order; the worker's index picks what a read reads. */
export type Scenario = (next: () => Target, record: Recorder, worker: number) => Promise<void>;

async function timed(record: Recorder, steps: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    await steps();
    record.flows.push(performance.now() - started);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
  }
}

const flow: Scenario = (next, record) =>
  timed(record, async () => {
    const token = idOf(await step(record, 'POST /v2/tokens', next(), (api) => api.post('/v2/tokens', TOKEN_FORM)));
    const charge = idOf(await step(record, 'POST /v2/charges', next(), (api) => api.post('/v2/charges', chargeForm(token))));
    await step(record, 'POST /v2/charges/capture/:id', next(), (api) => api.post(`/v2/charges/capture/${encodeURIComponent(charge)}`));
  });

const tokens: Scenario = (next, record) =>
  timed(record, async () => {
    await step(record, 'POST /v2/tokens', next(), (api) => api.post('/v2/tokens', TOKEN_FORM));
  });

/** Charges for `get` to read, made through the API before warm-up, one per worker. */
async function chargesToRead(api: ApiClient, count: number): Promise<string[]> {
  const setup = newRecorder(1);
  const target = { instance: 0, api };
  const made = await Promise.all(
    Array.from({ length: count }, async () => {
      const token = idOf(await step(setup, 'POST /v2/tokens', target, (client) => client.post('/v2/tokens', TOKEN_FORM)));
      return idOf(await step(setup, 'POST /v2/charges', target, (client) => client.post('/v2/charges', chargeForm(token))));
    }),
  );
  return made.map(encodeURIComponent);
}

export type ScenarioName = 'flow' | 'get' | 'tokens';

/** The scenario's loop, after whatever it needs in the database first. */
export async function prepareScenario(name: ScenarioName, apis: ApiClient[], concurrency: number): Promise<Scenario> {
  if (name === 'flow') return flow;
  if (name === 'tokens') return tokens;
  const first = apis[0];
  if (!first) throw new Error('no instance to prepare the charges on');
  const charges = await chargesToRead(first, concurrency);
  return (next, record, worker) =>
    timed(record, async () => {
      await step(record, 'GET /v2/charges/:id', next(), (api) => api.get(`/v2/charges/${charges[worker % charges.length]}`));
    });
}

/** A finished run; startedAt/endedAt are process.hrtime (ns), to cut the server's CPU profile to it. */
export type Run = { record: Recorder; elapsedS: number; startedAt: bigint; endedAt: bigint };

/** Runs `concurrency` workers for `seconds`; a flow started before the deadline is let finish. */
export async function drive(apis: ApiClient[], scenario: Scenario, concurrency: number, seconds: number): Promise<Run> {
  const record = newRecorder(apis.length);
  const startedAt = process.hrtime.bigint();
  const started = performance.now();
  const until = started + seconds * 1_000;
  const worker = async (_: unknown, index: number) => {
    const next = roundRobin(apis, index);
    while (performance.now() < until && record.errors < MAX_ERRORS) await scenario(next, record, index);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { record, elapsedS: (performance.now() - started) / 1_000, startedAt, endedAt: process.hrtime.bigint() };
}
