/**
 * `npm run test:ha`: PostgreSQL failover under load, end to end (docs/operations.md, "A highly
 * available PostgreSQL"). Builds a pg_auto_failover formation on this machine, starts two Payframe
 * instances on its multi-host URI, drives checkout flows through @payframe/node with a webhook
 * receiver, kills the primary with SIGKILL, and proves that nothing acknowledged was lost, no money
 * moved twice, both instances served again within 30 s without a restart, the failover's requests
 * met 503 SERVICE_UNAVAILABLE and nothing worse, and every event arrived at least once.
 */

import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { Payframe } from '@payframe/node';
import { freePort, runCli, type ServerProcess, spawnServe } from '@payframe/server/process';
import { allEventIds, checkNothingLost } from './checks.ts';
import { buildCluster, type Cluster, ensurePgAutoFailover } from './cluster.ts';
import { type FlowLog, runFlows } from './flows.ts';
import { recordAnswers } from './http-log.ts';
import { type Receiver, startReceiver } from './receiver.ts';

const RECOVERY_LIMIT_MS = 30_000;
const WORKERS_PER_INSTANCE = 3;
const say = (text: string) => console.log(`test:ha: ${text}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function waitFor(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      say(`gave up waiting for ${what}`);
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Polls one instance with a write (a token) until it answers 200: when it serves again. */
async function recoveredAt(url: string, secretKey: string, since: number): Promise<number | null> {
  const body = JSON.stringify({
    card: { number: TEST_CARDS.visa.number, cvc: '123', exp_month: '12', exp_year: '2040', name: 'Probe' },
    shopper: { ip: '203.0.113.9', session_id: 'probe', email: 'probe@example.com' },
  });
  while (Date.now() - since < 2 * RECOVERY_LIMIT_MS) {
    const started = Date.now();
    const status = await fetch(`${url}/v2/tokens`, {
      method: 'POST',
      headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      })
      .catch(() => 0);
    if (status === 200) return started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

async function main(): Promise<boolean> {
  const began = Date.now();
  ensurePgAutoFailover();
  const root = mkdtempSync(join(tmpdir(), 'payframe-ha-'));
  const clusterLog = join(root, 'cluster.log');
  say(`building a pg_auto_failover formation under ${root} (log: ${clusterLog})`);
  let cluster: Cluster | undefined;
  const instances: ServerProcess[] = [];
  let receiver: Receiver | undefined;
  let passed = false;
  try {
    cluster = await buildCluster(root, (line) => appendFileSync(clusterLog, `${line}\n`));
    const [node1, node2] = cluster.nodes;
    say(
      `formation ready after ${seconds(Date.now() - began)}: monitor on ${cluster.monitorPort}, ${node1?.name} on ${node1?.port} (primary), ${node2?.name} on ${node2?.port} (synchronous secondary)`,
    );
    say(`Payframe connects with ${cluster.uri}`);

    const env = {
      ...process.env,
      PAYFRAME_MASTER_KEY: randomBytes(32).toString('base64'),
      PAYFRAME_WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,5,5,10,10',
      PAYFRAME_DB_CONNECT_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'warn',
    };
    const dataDirs = [0, 1].map((n) => join(root, `payframe-${n}`));
    const { stdout } = await runCli(
      ['keys', 'create', '--account', 'ha', '--mode', 'test', '--json', '--database-url', cluster.uri, '--data-dir', dataDirs[0] ?? ''],
      { env },
    );
    const keys = JSON.parse(stdout) as { secretKey: string };
    for (const dataDir of dataDirs) {
      // `payframe ready` is an info line: readiness is the health probe on a port chosen beforehand.
      const port = await freePort('127.0.0.1');
      instances.push(
        await spawnServe({
          args: ['--database-url', cluster.uri, '--data-dir', dataDir, '--port', String(port)],
          env,
          healthUrl: `http://127.0.0.1:${port}`,
          ready: () => null,
          maxOutputChars: 1_000_000,
        }),
      );
    }
    say(`two Payframe instances: ${instances.map((instance) => instance.url).join(', ')}`);
    // Recovery must come without a restart: an instance that exits fails the run.
    const exited = instances.map(() => false);
    for (const [n, instance] of instances.entries()) void instance.exited.then(() => (exited[n] = true));

    const answers = recordAnswers(instances.map((instance) => instance.url));
    const sdks = instances.map((instance) => new Payframe(keys.secretKey, { apiBase: instance.url, maxNetworkRetries: 3 }));
    const [sdk] = sdks;
    if (!sdk) throw new Error('no instance');
    receiver = await startReceiver();
    const endpoint = await sdk.webhookEndpoints.create({ url: receiver.url });
    receiver.setSecret(endpoint.secret);

    const log: FlowLog = { captures: [], refunds: [], wrong: [], replayMismatches: [], flowsStarted: 0 };
    let running = true;
    const workers = sdks.flatMap((client, instance) =>
      Array.from({ length: WORKERS_PER_INSTANCE }, (_, n) => runFlows(client, `${instance}-${n}`, log, () => running)),
    );
    await waitFor('flows before the kill', 120_000, () => log.refunds.length >= 30);

    const primary = await cluster.primary();
    if (!primary) throw new Error('no primary before the kill');
    const before = { captures: log.captures.length, refunds: log.refunds.length };
    const killedAt = Date.now();
    cluster.kill(primary);
    say(`killed ${primary.name} (its postgres and its keeper, SIGKILL) with ${before.captures} captures and ${before.refunds} refunds acknowledged`);

    const recovered = await Promise.all(instances.map((instance) => recoveredAt(instance.url, keys.secretKey, killedAt)));
    const promoted = await cluster.primary();
    // Some more flows on the new primary, then the workers finish the flow they are in.
    const after = log.refunds.length;
    await waitFor('flows after the failover', 60_000, () => log.refunds.length >= after + 20);
    running = false;
    await Promise.all(workers);

    const findings = await checkNothingLost(sdk, log);
    const eventIds = await allEventIds(sdk);
    const delivered = await waitFor('every event to be delivered', 90_000, () => eventIds.every((id) => receiver?.delivered.has(id)));
    const undelivered = eventIds.filter((id) => !receiver?.delivered.has(id));
    const lastRecovery = Math.max(...recovered.map((at) => (at === null ? Number.POSITIVE_INFINITY : at - killedAt)));

    const byStatus = new Map<string, number>();
    for (const answer of answers) byStatus.set(String(answer.status), (byStatus.get(String(answer.status)) ?? 0) + 1);
    const refused = answers.filter((answer) => answer.status === 503);
    const wrongStatuses = answers.filter((answer) => !(answer.status === 200 || (answer.status === 503 && answer.code === 'SERVICE_UNAVAILABLE')));
    const duringFailover = answers.filter((answer) => answer.endedAt >= killedAt && answer.startedAt <= killedAt + lastRecovery);

    const checks: Array<[string, boolean, string]> = [
      [
        'every acknowledged capture present',
        findings.lostCaptures.length === 0,
        `${findings.capturesChecked} checked, ${findings.lostCaptures.length} lost ${findings.lostCaptures.slice(0, 5).join(' ')}`,
      ],
      [
        'every acknowledged refund present',
        findings.lostRefunds.length === 0,
        `${findings.refundsChecked} checked, ${findings.lostRefunds.length} lost ${findings.lostRefunds.slice(0, 5).join(' ')}`,
      ],
      [
        'no charge captured or refunded twice',
        findings.movedTwice.length === 0 && log.replayMismatches.length === 0,
        `${findings.events} events read; ${findings.movedTwice.length} doubled, ${log.replayMismatches.length} idempotent replays that differed ${[...findings.movedTwice, ...log.replayMismatches].slice(0, 5).join(' ')}`,
      ],
      [
        'both instances serve again within 30 s, not restarted',
        lastRecovery <= RECOVERY_LIMIT_MS && !exited.includes(true),
        recovered.map((at, n) => `instance ${n}: ${at === null ? 'never' : seconds(at - killedAt)}`).join(', '),
      ],
      [
        'requests met 200 or 503 SERVICE_UNAVAILABLE only (never a 500 or a wrong answer)',
        wrongStatuses.length === 0 && log.wrong.length === 0,
        `${answers.length} answers: ${[...byStatus].map(([status, count]) => `${count} × ${status}`).join(', ')}${[...wrongStatuses.slice(0, 3).map((answer) => `${answer.method} ${answer.path} ${answer.status} ${answer.code} at ${seconds(answer.startedAt - killedAt)} after the kill`), ...log.wrong.slice(0, 5)].map((text) => `; ${text}`).join('')}`,
      ],
      [
        'every event delivered at least once',
        delivered && undelivered.length === 0 && receiver.badSignatures === 0,
        `${eventIds.length} events, ${eventIds.length - undelivered.length} delivered, ${receiver.badSignatures} bad signatures`,
      ],
    ];
    passed = checks.every(([, ok]) => ok);

    console.log('');
    console.log('test:ha — PostgreSQL primary killed under load');
    console.log(
      `  failover: ${primary.name} killed, ${promoted?.name ?? 'no node'} promoted; both instances kept running (pids ${instances.map((instance) => instance.pid).join(', ')})`,
    );
    console.log(`  time to recover: ${recovered.map((at, n) => `instance ${n} ${at === null ? 'never' : seconds(at - killedAt)}`).join(', ')} after the kill`);
    console.log(
      `  requests refused (503 SERVICE_UNAVAILABLE): ${refused.length} in all, ${duringFailover.filter((answer) => answer.status === 503).length} while recovering; flows retried them with the same Idempotency-Key`,
    );
    console.log(
      `  flows: ${log.flowsStarted} started, ${log.captures.length} captures and ${log.refunds.length} refunds acknowledged (${before.captures} and ${before.refunds} before the kill)`,
    );
    console.log(`  lost: ${findings.lostCaptures.length} captures, ${findings.lostRefunds.length} refunds, ${undelivered.length} events undelivered`);
    for (const [name, ok, detail] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
    console.log(`  whole run: ${seconds(Date.now() - began)}`);
    if (!passed) for (const [n, instance] of instances.entries()) appendFileSync(join(root, `payframe-${n}.log`), instance.output());
  } finally {
    await Promise.all(instances.map((instance) => instance.stop('SIGTERM', 15_000)));
    await receiver?.close();
    await cluster?.stop();
    if (passed) rmSync(root, { recursive: true, force: true });
    else say(`kept ${root} for a look (cluster.log, payframe-N.log)`);
  }
  return passed;
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    console.error(`test:ha: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
