import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summary } from '../bursts.ts';
import { type ApiResponse, type Client, chargeParams, client, createCharge, expectErrorShape, TEST_PANS, tokenParams } from '../client.ts';
import { createKeys, startServer, type TestServer, tempDataDir } from '../harness.ts';
import { databaseUrlOf, requirePostgres } from './support.ts';

/**
 * docs/api.md "Errors", docs/design.md "Scale-out on PostgreSQL": when PostgreSQL cannot be
 * reached the API answers 503 SERVICE_UNAVAILABLE (JSON, Retry-After) quickly, the process stays
 * up, and it serves again by itself once the database is back.
 * A TCP proxy on loopback sits between the server and PostgreSQL; the test cuts and restores it.
 */

const CONNECT_TIMEOUT_MS = 500;
const STATEMENT_TIMEOUT_MS = 1_000;
/** What any single request may take while the database is away (the client's query timeout is statement + 1 s). */
const OUTAGE_BOUND_MS = 3_000;
/** How long the API may take to serve again once the database is back. */
const RECOVERY_BOUND_MS = 10_000;

type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A loopback TCP proxy in front of PostgreSQL. `cut` kills every connection and stops listening
 * (connections refused); `blackhole` is a partition: open connections stay open but every byte is
 * dropped, and new connections are accepted and never answered; `restore` forwards again.
 */
class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private mode: ProxyMode = 'forward';
  port = 0;
  /** Connections forwarded to PostgreSQL, to see that the server really goes through the proxy. */
  forwarded = 0;
  /** Bytes the server sent that were dropped (a partition): proof that a query is waiting on the wire. */
  droppedFromServer = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: this.port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
    this.port = address.port;
    this.server = server;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(socket: Socket): void {
    this.track(socket);
    if (this.mode === 'refuse') {
      socket.destroy();
      return;
    }
    if (this.mode === 'blackhole') {
      socket.on('data', (chunk: Buffer) => (this.droppedFromServer += chunk.length));
      return; // accepted, never answered
    }
    this.forwarded++;
    const upstream = connect(this.target);
    this.track(upstream);
    socket.on('data', (chunk: Buffer) => {
      if (this.mode === 'forward') upstream.write(chunk);
      else this.droppedFromServer += chunk.length;
    });
    upstream.on('data', (chunk: Buffer) => {
      if (this.mode === 'forward') socket.write(chunk);
    });
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  }

  private destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** The database goes away: every open connection dies and new ones are refused (nothing listens). */
  async cut(): Promise<void> {
    this.mode = 'refuse';
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    this.destroyAll();
    await closed;
  }

  /** A network partition: nothing is closed, nothing gets through. */
  async blackhole(): Promise<void> {
    this.mode = 'blackhole';
    this.droppedFromServer = 0;
    if (!this.server) await this.listen();
  }

  /** The database is back on the same address; connections left hanging by a partition are closed. */
  async restore(): Promise<void> {
    if (this.mode === 'blackhole') this.destroyAll();
    this.mode = 'forward';
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }
}

let proxy: TcpProxy;
let server: TestServer;
let api: Client;
/** Every response of the test, to check that none was a server fault (500). */
const seen: ApiResponse[] = [];

type Timed = { response: ApiResponse; ms: number; label: string };

async function timed(label: string, send: () => Promise<ApiResponse>): Promise<Timed> {
  const started = performance.now();
  const response = await send();
  seen.push(response);
  return { response, ms: performance.now() - started, label };
}

async function healthz(): Promise<ApiResponse> {
  const response = await fetch(`${server.url}/healthz`);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** Polls until `send` answers 200, within a bound; every other answer on the way must be a 503. */
async function untilOk(label: string, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const deadline = performance.now() + RECOVERY_BOUND_MS;
  const statuses: number[] = [];
  for (;;) {
    const response = await send();
    seen.push(response);
    statuses.push(response.status);
    if (response.status === 200) return response;
    expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(503);
    if (performance.now() > deadline) throw new Error(`${label} did not answer 200 within ${RECOVERY_BOUND_MS} ms: ${JSON.stringify(statuses)}`);
    await delay(50); // a poll interval, not a wait standing in for readiness
  }
}

function expectUnavailable({ response, ms, label }: Timed): void {
  expect({ label, status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
    label,
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
  });
  expectErrorShape(response.body);
  expect(response.body.type).toBe('api_error');
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('retry-after'), label).toMatch(/^[1-9]\d*$/);
  expect(ms, `${label} took ${Math.round(ms)} ms`).toBeLessThan(OUTAGE_BOUND_MS);
}

/** A mix of reads and writes fired at once while the database is away: all 503, all quick. */
async function outageBurst(chargeId: string, token: string, key: string): Promise<Timed[]> {
  const burst = [
    timed('GET charge', () => api.get(`/v2/charges/${chargeId}`)),
    timed('POST token', () => api.post('/v2/tokens', tokenParams(TEST_PANS.visa))),
    timed('POST charge', () => api.post('/v2/charges', chargeParams(token))),
    timed('POST refund', () => api.post(`/v2/charges/refund/${chargeId}`, { amount: '100' })),
    timed('GET clock', () => api.get('/v2/test_helpers/clock')),
    timed('POST charge, idempotent', () => api.post('/v2/charges', chargeParams(token), { headers: { 'idempotency-key': key } })),
    timed('GET /healthz', healthz),
  ];
  return Promise.all(burst);
}

const idempotencyKey = `outage-${randomUUID()}`;

beforeAll(async () => {
  requirePostgres();
  const dataDir = tempDataDir();
  // storeArgs creates the database; the server is then pointed at the same database through the proxy.
  const databaseUrl = new URL(await databaseUrlOf(dataDir));
  proxy = new TcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
  await proxy.listen();
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  server = await startServer({
    dataDir,
    // A later --database-url wins over the one storeArgs puts first (node:util parseArgs keeps the last).
    args: ['--database-url', proxied.toString()],
    env: { PAYFRAME_DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS), PAYFRAME_DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) },
  });
  const keys = await createKeys(dataDir, 'outage');
  api = client(server.url, keys.secretKey);
});

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
});

/** The server's process id, from its own log lines (pino writes `pid` on each). */
function serverPid(): number {
  const match = /"pid":(\d+)/.exec(server.output());
  if (!match?.[1]) throw new Error(`no pid in the server output:\n${server.output().slice(0, 2000)}`);
  return Number(match[1]);
}

/**
 * Still running: it answers HTTP (a crashed process may linger as a zombie a moment, so signal 0
 * alone could not tell), and signal 0 finds the very process that started.
 */
async function expectAlive(pid: number): Promise<void> {
  const died = () =>
    `the server process ${pid} died:\n${server
      .output()
      .split('\n')
      .filter((line) => !line.startsWith('{'))
      .join('\n')
      .slice(-3000)}`;
  const answered = await fetch(`${server.url}/healthz`).then(
    (response) => response.status,
    (error: unknown) => String(error),
  );
  expect(typeof answered === 'number' ? 'answers' : answered, died()).toBe('answers');
  let exists = true;
  try {
    process.kill(pid, 0);
  } catch {
    exists = false;
  }
  expect(exists, died()).toBe(true);
}

/** Polls a condition within a bound (no fixed sleep). */
async function until(label: string, condition: () => boolean, boundMs = 5_000): Promise<void> {
  const deadline = performance.now() + boundMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${label}: not within ${boundMs} ms`);
    await delay(10);
  }
}

describe('PostgreSQL outage', () => {
  let chargeId: string;
  let spareToken: string;
  let pid: number;

  it('serves through the proxy while the database is there', async () => {
    pid = serverPid();
    expect((await healthz()).body).toEqual({ status: 'ok' });
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000' });
    const captured = await api.post(`/v2/charges/capture/${charge.id}`);
    expect(captured.body).toMatchObject({ status: 'CHARGE_SUCCESS' });
    chargeId = charge.id;
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    expect(token.status).toBe(200);
    spareToken = token.body.id;
    // The server's connections go through the proxy, not straight to PostgreSQL.
    expect(proxy.forwarded).toBeGreaterThan(0);
  });

  it('answers 503 SERVICE_UNAVAILABLE quickly when the database goes away (connections killed, then refused), and stays up', async () => {
    await proxy.cut();
    // Twice: once with the pool's connections just killed, once with the pool empty.
    for (let round = 0; round < 2; round++) {
      const burst = await outageBurst(chargeId, spareToken, idempotencyKey);
      await expectAlive(pid);
      for (const result of burst) expectUnavailable(result);
    }
    await expectAlive(pid);
  });

  it('serves again without a restart once the database is back', async () => {
    await proxy.restore();
    expect((await untilOk('GET /healthz', healthz)).body).toEqual({ status: 'ok' });
    const read = await untilOk('GET charge', () => api.get(`/v2/charges/${chargeId}`));
    expect(read.body).toMatchObject({ id: chargeId, status: 'CHARGE_SUCCESS', amount_refunded: 0 });
    expect(serverPid()).toBe(pid);

    // Nothing of the refused requests happened: the refund was not made, the token is unused,
    // and the idempotency key answered 503 is free for the retry.
    const charge = await api.post('/v2/charges', chargeParams(spareToken), { headers: { 'idempotency-key': idempotencyKey } });
    seen.push(charge);
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    const refund = await api.post(`/v2/charges/refund/${chargeId}`, { amount: '100' });
    seen.push(refund);
    expect(refund.body).toMatchObject({ type: 'refund', amount: 100 });
    expect((await api.get(`/v2/charges/${chargeId}`)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 100 });
    const fresh = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${fresh.id}`)).body).toMatchObject({ status: 'CHARGE_SUCCESS' });
  });

  it('answers 503 within the timeouts during a network partition (nothing closed, nothing answered), then recovers', async () => {
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    expect(token.status).toBe(200);
    await proxy.blackhole();
    // Pooled connections hang (statement timeout), new ones never finish connecting (connect timeout).
    for (let round = 0; round < 2; round++) {
      const burst = await outageBurst(chargeId, token.body.id, `outage-${randomUUID()}`);
      await expectAlive(pid);
      for (const result of burst) expectUnavailable(result);
    }
    expect(proxy.droppedFromServer).toBeGreaterThan(0);
    await proxy.restore();
    await expectAlive(pid);
    await untilOk('GET /healthz', healthz);
    const charge = await untilOk('POST charge', () => api.post('/v2/charges', chargeParams(token.body.id)));
    expect(charge.body).toMatchObject({ status: 'PENDING', token: { id: token.body.id } });
  });

  it('answers 503 to a request whose query is on the wire when the database dies, and stays up', async () => {
    await untilOk('GET /healthz', healthz);
    // The request's query leaves the server and hangs in the partition...
    await proxy.blackhole();
    const started = performance.now();
    const inFlight = timed('GET charge, in flight', () => api.get(`/v2/charges/${chargeId}`));
    await until('the query reached the proxy', () => proxy.droppedFromServer > 0);
    // ...and then the database goes away under it.
    await proxy.cut();
    const result = await inFlight;
    await expectAlive(pid);
    expectUnavailable(result);
    expect(performance.now() - started).toBeLessThan(OUTAGE_BOUND_MS);

    await proxy.restore();
    expect((await untilOk('GET charge', () => api.get(`/v2/charges/${chargeId}`))).body).toMatchObject({ id: chargeId });
    expect(serverPid()).toBe(pid);
  });

  it('never answered a server fault, and logged none', async () => {
    await expectAlive(pid);
    expect(seen.length).toBeGreaterThan(0);
    expect(summary(seen.filter((response) => response.status >= 500 && response.status !== 503))).toBe('[]');
    expect(server.output()).not.toMatch(/"level":(50|60)/);
    expect(server.output()).toContain('database unavailable');
  });
});
