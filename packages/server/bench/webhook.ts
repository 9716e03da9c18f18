/**
 * `npm run bench -- --webhook [other flags]`: the same load twice, each run its own `flows.ts`
 * process on a fresh store: without webhooks, then with one webhook endpoint (every event) at a
 * receiver in the bench process answering 200. Prints flows/s of both; the target is that
 * webhooks cost at most 15 % of the throughput, since requests only insert their deliveries.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runFlows } from './compare.ts';
import type { Figures } from './flows.ts';

const TARGET_PERCENT = 15;

export async function runWebhookComparison(passthrough: string[]): Promise<void> {
  const flags = passthrough.filter((arg) => arg !== '--webhook' && arg !== '--with-webhook');
  process.stderr.write('[webhook] without webhooks\n');
  const without = await runFlows(flags);
  process.stderr.write('[webhook] with one webhook endpoint\n');
  const withWebhook = await runFlows([...flags, '--with-webhook']);
  console.log(formatComparison(without.figures, withWebhook.figures));
  if (!without.figures || !withWebhook.figures || without.figures.errors + withWebhook.figures.errors > 0) process.exitCode = 1;
}

function formatComparison(without: Figures | null, withWebhook: Figures | null): string {
  const row = (name: string, figures: Figures | null) =>
    figures
      ? `| ${name} | ${figures.flowsPerSecond} | ${figures.flowLatencyMs.p99} | ${figures.serverCpuMsPerFlow ?? '-'} | ${figures.webhooks ? figures.webhooks.receivedPerSecond : '-'} | ${figures.errors} |`
      : `| ${name} | failed | | | | |`;
  const lines = [
    `Payframe bench --webhook: token → charge → capture (2 events a flow)${without ? `, ${without.db}, ${without.concurrency} concurrent, ${without.durationS} s` : ''}`,
    '',
    '| run | flows/s | flow p99 ms | server CPU ms/flow | webhooks received/s | errors |',
    '|---|---|---|---|---|---|',
    row('without webhooks', without),
    row('one endpoint, every event', withWebhook),
  ];
  if (without && withWebhook) {
    const change = ((withWebhook.flowsPerSecond - without.flowsPerSecond) / without.flowsPerSecond) * 100;
    const pass = change >= -TARGET_PERCENT;
    lines.push('', `with webhooks: ${change >= 0 ? '+' : ''}${change.toFixed(1)} % flows/s (target: within ${TARGET_PERCENT} %) ${pass ? 'PASS' : 'MISS'}`);
    const perDelivery = cpuMsPerDelivery(without, withWebhook);
    if (perDelivery !== null) lines.push(`server CPU per delivery: ${perDelivery.toFixed(3)} ms (the flow's extra CPU spread over the webhooks received)`);
    lines.push(`load average (1 min) before each run: ${without.loadAverage1m.toFixed(2)}, ${withWebhook.loadAverage1m.toFixed(2)}`);
    // On a shared box the two runs can meet different neighbours: a run beside a busy one is not comparable.
    const others = (figures: Figures) => (figures.othersCpuPercent === null ? 'n/a' : `${figures.othersCpuPercent} %`);
    lines.push(`other processes' CPU during each run (of one core): ${others(without)}, ${others(withWebhook)}`);
  }
  return lines.join('\n');
}

/** What each webhook costs the server: CPU per flow beyond the run without, times flows per webhook. */
function cpuMsPerDelivery(without: Figures, withWebhook: Figures): number | null {
  if (without.serverCpuMsPerFlow === null || withWebhook.serverCpuMsPerFlow === null || !withWebhook.webhooks?.received) return null;
  return ((withWebhook.serverCpuMsPerFlow - without.serverCpuMsPerFlow) * withWebhook.flows) / withWebhook.webhooks.received;
}

/** A merchant's endpoint that answers every webhook 200 at once and counts them. */
export async function startBenchReceiver(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received: () => received,
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
