/**
 * `npm run bench:widget`: mount() → `ready` of the card widget in Chromium, against a real
 * `payframe serve` and a merchant page on another origin. Prints p50/p95 against the 150 ms target:
 * warm (the same page mounts, destroys and mounts again: the frame's assets are cached) and cold
 * (a fresh browser context for each mount: nothing cached).
 *
 *   --mounts N   warm mounts (default 30)
 *   --cold N     cold mounts (default 10)
 */
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chromiumLaunchOptions } from '@payframe/qa-kit';
import { runCli, spawnServe, tempDataDir } from '@payframe/server/process';
import { type Browser, chromium, type Page } from '@playwright/test';

const TARGET_MS = 150;
const log = (message: string) => process.stderr.write(`[bench:widget] ${message}\n`);

const { values } = parseArgs({ options: { mounts: { type: 'string', default: '30' }, cold: { type: 'string', default: '10' } }, strict: true });
const warmMounts = Number(values.mounts);
const coldMounts = Number(values.cold);
if (!Number.isSafeInteger(warmMounts) || warmMounts < 1) throw new Error('--mounts must be a positive integer');
if (!Number.isSafeInteger(coldMounts) || coldMounts < 0) throw new Error('--cold must be a non-negative integer');

/** The merchant's page: the loader and an empty host element, nothing mounted until the bench says so. */
async function startMerchant(payframeUrl: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title>
<script src="${payframeUrl}/v2/js/payframe.js"></script></head><body><div id="card"></div></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else response.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // localhost while Payframe is on 127.0.0.1: another origin, as a real merchant's would be.
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** One mount in the page, timed from the mount() call to the `ready` event; the card is destroyed after. */
function mountOnce(page: Page, publishableKey: string): Promise<number> {
  return page.evaluate(
    (key) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const card = window.Payframe(key).mount('#card');
        // A broken frame fails the bench instead of hanging it.
        const timeout = setTimeout(() => reject(new Error('no ready event within 10 s')), 10_000);
        card.on('ready', () => {
          const elapsed = performance.now() - started;
          clearTimeout(timeout);
          card.destroy();
          resolve(elapsed);
        });
      }),
    publishableKey,
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(name: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const [p50, p95] = [percentile(sorted, 50), percentile(sorted, 95)];
  const verdict = p95 < TARGET_MS ? 'within' : 'over';
  console.log(`${name.padEnd(5)} n=${String(sorted.length).padStart(3)}  p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  max ${sorted.at(-1)?.toFixed(1).padStart(6)} ms  (${verdict} ${TARGET_MS} ms at p95)`);
}

async function measure(browser: Browser, merchantUrl: string, publishableKey: string) {
  const warm: number[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(merchantUrl);
  // One mount first so that the samples all see the frame's assets in the cache.
  await mountOnce(page, publishableKey);
  for (let index = 0; index < warmMounts; index++) warm.push(await mountOnce(page, publishableKey));
  await context.close();

  const cold: number[] = [];
  for (let index = 0; index < coldMounts; index++) {
    const fresh = await browser.newContext();
    const freshPage = await fresh.newPage();
    await freshPage.goto(merchantUrl);
    cold.push(await mountOnce(freshPage, publishableKey));
    await fresh.close();
  }
  return { warm, cold };
}

const dataDir = tempDataDir('payframe-bench-widget-');
const { stdout } = await runCli(['keys', 'create', '--account', 'bench', '--mode', 'test', '--json', '--data-dir', dataDir]);
const { publishableKey } = JSON.parse(stdout) as { publishableKey: string };
const payframe = await spawnServe({ args: ['--data-dir', dataDir] });
const merchant = await startMerchant(payframe.url);
const browser = await chromium.launch({ headless: true, ...chromiumLaunchOptions({ defaultExecutablePath: '/usr/bin/chromium' }) });
try {
  log(`payframe ${payframe.url}, merchant ${merchant.url}; ${warmMounts} warm and ${coldMounts} cold mounts`);
  const { warm, cold } = await measure(browser, merchant.url, publishableKey);
  console.log(`mount() → ready in Chromium, load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
  report('warm', warm);
  if (cold.length > 0) report('cold', cold);
} finally {
  await browser.close();
  await merchant.stop();
  await payframe.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
