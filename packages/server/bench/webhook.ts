/**
 * `npm run bench -- --webhook [--scenario flow] [--seconds 16] [--slice 1]`: what one webhook
 * endpoint costs the flow. Two servers side by side on fresh stores (side-by-side.ts), one with an
 * endpoint for every event at a receiver in the bench process answering 200, the load alternating
 * between them in short slices, so that the host's drift falls on both alike. Deliveries run in the
 * background, so the receiver holds its answers while the other server is driven: the attempts in
 * flight then wait (well within their timeout), no new one starts, and the deliveries' work falls
 * in the endpoint side's own slices. What each server spends while the other is driven is printed.
 *
 * `--webhook --pairs N`: whole runs instead, each its own `flows.ts` process on a fresh store,
 * alternating A B B A over N pairs; the means are compared. Target: at most 10 % fewer flows/s.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runFlows } from './compare.ts';
import type { Figures } from './flows.ts';
import type { Options } from './options.ts';
import { cpuAdded, lostVerdict, measureSideBySide, sideReport, signedPercent, throughputLost } from './side-by-side.ts';

export async function runWebhookComparison(options: Options, passthrough: string[]): Promise<void> {
  if (options.pairs === null) return runSideBySide(options);
  return runWholeRuns(options.pairs, passthrough);
}

async function runSideBySide(options: Options): Promise<void> {
  const receiver = await startBenchReceiver();
  try {
    const plain = { ...options, webhook: false, withWebhook: false };
    const [withEndpoint, without] = await measureSideBySide(options, [
      {
        name: 'one webhook endpoint',
        options: plain,
        setUp: (url, secretKey) => registerEndpoint(url, secretKey, receiver.url),
        driven: (active) => receiver.hold(!active),
      },
      { name: 'no webhook endpoint', options: plain },
    ]);
    const lost = throughputLost(withEndpoint, without);
    console.log(
      sideReport(
        '--webhook',
        options,
        [withEndpoint, without],
        [
          `webhooks received: ${receiver.received()} (${(receiver.received() / withEndpoint.seconds).toFixed(1)} per second of the endpoint side's slices, warm-up included)`,
          lostVerdict('with one webhook endpoint', lost),
          `server CPU per request with one webhook endpoint: ${signedPercent(cpuAdded(withEndpoint, without))}`,
        ],
      ),
    );
  } finally {
    await receiver.close();
  }
}

async function runWholeRuns(pairs: number, passthrough: string[]): Promise<void> {
  const flags = passthrough.filter(
    (arg, index) => arg !== '--webhook' && arg !== '--with-webhook' && arg !== '--pairs' && passthrough[index - 1] !== '--pairs',
  );
  const runs: { withWebhook: boolean; figures: Figures | null }[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    for (const withWebhook of pair % 2 === 0 ? [false, true] : [true, false]) {
      process.stderr.write(`[webhook] pair ${pair + 1} of ${pairs}: ${withWebhook ? 'with one webhook endpoint' : 'without webhooks'}\n`);
      const { figures } = await runFlows(withWebhook ? [...flags, '--with-webhook'] : flags);
      runs.push({ withWebhook, figures });
    }
  }
  console.log(formatComparison(runs));
  if (runs.some((run) => !run.figures || run.figures.errors > 0)) process.exitCode = 1;
}

function formatComparison(runs: { withWebhook: boolean; figures: Figures | null }[]): string {
  const first = runs.find((run) => run.figures)?.figures;
  const lines = [
    `Payframe bench --webhook: token → charge → capture (2 events a flow)${first ? `, ${first.db}, ${first.concurrency} concurrent, ${first.durationS} s a run` : ''}, runs alternating A B B A`,
    '',
    '| run | webhooks | flows/s | flow p99 ms | server CPU ms/flow | webhooks received/s | load 1m | errors |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(({ withWebhook, figures }, index) =>
      figures
        ? `| ${index + 1} | ${withWebhook ? 'one endpoint' : 'none'} | ${figures.flowsPerSecond} | ${figures.flowLatencyMs.p99} | ${figures.serverCpuMsPerFlow ?? '-'} | ${figures.webhooks ? figures.webhooks.receivedPerSecond : '-'} | ${figures.loadAverage1m.toFixed(2)} | ${figures.errors} |`
        : `| ${index + 1} | ${withWebhook ? 'one endpoint' : 'none'} | failed | | | | | |`,
    ),
  ];
  const mean = (withWebhook: boolean) => {
    const values = runs.filter((run) => run.withWebhook === withWebhook && run.figures).map((run) => run.figures!.flowsPerSecond);
    return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  const without = mean(false);
  const withWebhook = mean(true);
  if (without !== null && withWebhook !== null) {
    const lost = (1 - withWebhook / without) * 100;
    lines.push('', `mean flows/s: ${without.toFixed(1)} without, ${withWebhook.toFixed(1)} with one endpoint`, lostVerdict('with one webhook endpoint', lost));
  }
  return lines.join('\n');
}

/**
 * A merchant's endpoint that answers every webhook 200 and counts them: at once, or, while held,
 * when it is released.
 */
export async function startBenchReceiver(): Promise<{ url: string; received(): number; hold(held: boolean): void; close(): Promise<void> }> {
  let received = 0;
  let held = false;
  let waiting: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      if (held) waiting.push(response);
      else response.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received: () => received,
    hold(hold) {
      held = hold;
      if (hold) return;
      for (const response of waiting) response.writeHead(200).end();
      waiting = [];
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Registers the receiver for every event of the bench account, through the API as a merchant would. */
export async function registerEndpoint(apiUrl: string, apiKey: string, receiverUrl: string): Promise<void> {
  const response = await fetch(`${apiUrl}/v2/webhook_endpoints`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiverUrl }),
  });
  if (response.status !== 200) throw new Error(`webhook endpoint: ${response.status} ${await response.text()}`);
}
