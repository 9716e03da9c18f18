/**
 * `npm run bench:widget`: mount() → `ready` of the card widget in Chromium, against a real
 * `payframe serve` and a merchant page on another origin. Prints p50/p95 against the 150 ms target:
 * warm (the same page mounts, destroys and mounts again: the frame page is cached, and revalidated) and cold
 * (a fresh browser context for each mount: nothing cached). Cold mounts also show where their time
 * went (medians from the frame's navigation timing), and the CPU that Chromium and the
 * server spent per mount, less sensitive to a busy machine than the times (Chromium's includes the
 * merchant page and the browser context of each cold mount; the server's, its idle background work).
 *
 *   --mounts N   warm mounts (default 30)
 *   --cold N     cold mounts (default 10)
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** One mount in the page, timed from the mount() call to the `ready` event; the card is destroyed after unless kept. */
function mountOnce(page: Page, publishableKey: string, keep = false): Promise<{ ms: number; startedAt: number }> {
  return page.evaluate(
    ([key, keepCard]) =>
      new Promise<{ ms: number; startedAt: number }>((resolve, reject) => {
        const started = performance.now();
        const card = window.Payframe(key).mount('#card');
        // A broken frame fails the bench instead of hanging it.
        const timeout = setTimeout(() => reject(new Error('no ready event within 10 s')), 10_000);
        card.on('ready', () => {
          const elapsed = performance.now() - started;
          clearTimeout(timeout);
          if (!keepCard) card.destroy();
          resolve({ ms: elapsed, startedAt: performance.timeOrigin + started });
        });
      }),
    [publishableKey, keep] as const,
  );
}

/** Milestones of the frame's page, in ms after mount(): the page received, parsed (its renderer process was up), its script run. */
const PHASES = ['page received', 'page parsed', 'script run'] as const;

async function framePhases(page: Page, startedAt: number): Promise<number[]> {
  const frame = page.frame({ name: 'payframe-card' });
  if (!frame) throw new Error('the card frame is missing');
  const [origin, navigation] = await frame.evaluate(() => [performance.timeOrigin, performance.getEntriesByType('navigation')[0]?.toJSON()] as const);
  const { responseEnd, domInteractive, domContentLoadedEventEnd } = navigation as PerformanceNavigationTiming;
  return [responseEnd, domInteractive, domContentLoadedEventEnd].map((at) => origin + at - startedAt);
}

/** Each process's parent and its CPU ticks (user and system, with those of the children it reaped), from /proc; null elsewhere. */
function processTable(): Map<number, { parent: number; ticks: number }> | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const table = new Map<number, { parent: number; ticks: number }>();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // The fields after the command name (which may hold spaces): state, ppid, … utime (14th), stime, cutime, cstime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(pid), { parent: Number(fields[1]), ticks: [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) });
  }
  return table;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU ms of the given processes and everything below them. */
function cpuMsOf(table: Map<number, { parent: number; ticks: number }>, roots: number[]): number {
  let ticks = 0;
  const pending = [...roots];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    ticks += table.get(pid)?.ticks ?? 0;
    for (const [child, { parent }] of table) if (parent === pid) pending.push(child);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** CPU per mount over a stretch of mounts: Chromium's (all this process's children but the server) and the server's. */
function cpuMeter(serverPid: number) {
  const read = () => {
    const table = processTable();
    if (!table) return null;
    const browser = [...table].filter(([pid, { parent }]) => parent === process.pid && pid !== serverPid).map(([pid]) => pid);
    return { browser: cpuMsOf(table, browser), server: cpuMsOf(table, [serverPid]) };
  };
  const start = read();
  return (mounts: number): string => {
    const end = read();
    if (!start || !end) return '';
    const perMount = (key: 'browser' | 'server') => (end[key] - start[key]) / mounts;
    return `  CPU/mount: Chromium ${perMount('browser').toFixed(0)} ms, server ${perMount('server').toFixed(1)} ms`;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(name: string, samples: number[], cpu: string): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const [p50, p95] = [percentile(sorted, 50), percentile(sorted, 95)];
  const verdict = p95 < TARGET_MS ? 'within' : 'over';
  console.log(
    `${name.padEnd(5)} n=${String(sorted.length).padStart(3)}  p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  max ${sorted.at(-1)?.toFixed(1).padStart(6)} ms  (${verdict} ${TARGET_MS} ms at p95)${cpu}`,
  );
}

async function measure(browser: Browser, merchantUrl: string, publishableKey: string, serverPid: number) {
  const warm: number[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(merchantUrl);
  // One mount first so that the samples all find the frame page in the cache.
  await mountOnce(page, publishableKey);
  const warmCpu = cpuMeter(serverPid);
  for (let index = 0; index < warmMounts; index++) warm.push((await mountOnce(page, publishableKey)).ms);
  const warmCpuPerMount = warmCpu(warmMounts);
  await context.close();

  const cold: number[] = [];
  const phases: number[][] = [];
  const coldCpu = cpuMeter(serverPid);
  for (let index = 0; index < coldMounts; index++) {
    const fresh = await browser.newContext();
    const freshPage = await fresh.newPage();
    await freshPage.goto(merchantUrl);
    const { ms, startedAt } = await mountOnce(freshPage, publishableKey, true);
    cold.push(ms);
    phases.push(await framePhases(freshPage, startedAt));
    await fresh.close();
  }
  return { warm, warmCpuPerMount, cold, coldCpuPerMount: coldMounts > 0 ? coldCpu(coldMounts) : '', phases };
}

const dataDir = tempDataDir('payframe-bench-widget-');
const { stdout } = await runCli(['keys', 'create', '--account', 'bench', '--mode', 'test', '--json', '--data-dir', dataDir]);
const { publishableKey } = JSON.parse(stdout) as { publishableKey: string };
const payframe = await spawnServe({ args: ['--data-dir', dataDir] });
const merchant = await startMerchant(payframe.url);
const browser = await chromium.launch({ headless: true, ...chromiumLaunchOptions({ defaultExecutablePath: '/usr/bin/chromium' }) });
try {
  log(`payframe ${payframe.url}, merchant ${merchant.url}; ${warmMounts} warm and ${coldMounts} cold mounts`);
  const { warm, warmCpuPerMount, cold, coldCpuPerMount, phases } = await measure(browser, merchant.url, publishableKey, payframe.pid);
  console.log(
    `mount() → ready in Chromium, load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  report('warm', warm, warmCpuPerMount);
  if (cold.length > 0) {
    report('cold', cold, coldCpuPerMount);
    const medians = PHASES.map((_, index) =>
      percentile(
        phases.map((phase) => phase[index] ?? Number.NaN).sort((a, b) => a - b),
        50,
      ),
    );
    console.log(`cold, median ms after mount(): ${PHASES.map((phase, index) => `${phase} ${medians[index]?.toFixed(1)}`).join(', ')}`);
  }
} finally {
  await browser.close();
  await merchant.stop();
  await payframe.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
