/**
 * Summarises a V8 `.cpuprofile` (as `node --cpu-prof` writes it): where the server's main thread
 * spent its time, by function and by module, self and inclusive.
 *
 * Used by `npm run bench -- --profile`; also runs on its own:
 *   node --import tsx packages/server/bench/cpu-profile.ts FILE.cpuprofile
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

export type Share = { name: string; ms: number; percent: number };
export type ProfileSummary = {
  path: string;
  /** Whether the samples were cut to the measured window (false: the whole profile, boot included). */
  windowed: boolean;
  sampledMs: number;
  /**
   * Main-thread wall time not spent waiting in the event loop: JavaScript, GC, and native calls,
   * including blocking ones such as SQLite's fsync. Every percentage below is a share of it.
   */
  busyMs: number;
  idlePercent: number;
  selfByModule: Share[];
  selfByFunction: Share[];
  inclusiveByFunction: Share[];
};

/** Pseudo-frames V8 uses for time outside JavaScript. */
const IDLE = '(idle)';
const ROOT = '(root)';

/**
 * Time stamps of V8's profiler and process.hrtime are both CLOCK_MONOTONIC on Linux, so the
 * bench's window (in µs) can cut boot and warm-up out of the server's profile.
 */
export function summarizeProfile(profile: CpuProfile, options: { path: string; fromUs?: number; toUs?: number; top?: number }): ProfileSummary {
  const top = options.top ?? 20;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = parents(profile.nodes);
  const durations = sampleDurations(profile);
  const inWindow = windowFilter(profile, options.fromUs, options.toUs);

  const selfModule = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let sampledUs = 0;
  let idleUs = 0;

  profile.samples.forEach((nodeId, index) => {
    const node = byId.get(nodeId);
    const us = durations[index] ?? 0;
    if (!node || !inWindow.keep(index)) return;
    sampledUs += us;
    if (node.callFrame.functionName === IDLE) {
      idleUs += us;
      return;
    }
    add(selfModule, moduleOf(node.callFrame), us);
    add(selfFunction, functionLabel(node.callFrame), us);
    // A recursive function is counted once per sample, or inclusive time could exceed 100 %.
    const seen = new Set<string>();
    for (let current: ProfileNode | undefined = node; current; current = byId.get(parentOf.get(current.id) ?? -1)) {
      if (current.callFrame.functionName === ROOT) continue;
      const label = functionLabel(current.callFrame);
      if (!seen.has(label)) add(inclusive, label, us);
      seen.add(label);
    }
  });

  const busyUs = sampledUs - idleUs;
  const shares = (totals: Map<string, number>) =>
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1_000), percent: Math.round((1_000 * us) / Math.max(busyUs, 1)) / 10 }));
  return {
    path: options.path,
    windowed: inWindow.windowed,
    sampledMs: Math.round(sampledUs / 1_000),
    busyMs: Math.round(busyUs / 1_000),
    idlePercent: Math.round((1_000 * idleUs) / Math.max(sampledUs, 1)) / 10,
    selfByModule: shares(selfModule),
    selfByFunction: shares(selfFunction),
    inclusiveByFunction: shares(inclusive),
  };
}

function parents(nodes: ProfileNode[]): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  return parentOf;
}

/** As DevTools does: a sample lasts until the next one is taken. */
function sampleDurations(profile: CpuProfile): number[] {
  const { timeDeltas } = profile;
  return timeDeltas.map((_delta, index) => timeDeltas[index + 1] ?? 0);
}

function windowFilter(profile: CpuProfile, fromUs?: number, toUs?: number): { windowed: boolean; keep(index: number): boolean } {
  if (fromUs === undefined || toUs === undefined) return { windowed: false, keep: () => true };
  // A window that misses the profile entirely means the clocks differ: keep everything rather than nothing.
  if (toUs < profile.startTime || fromUs > profile.endTime) return { windowed: false, keep: () => true };
  const stamps: number[] = [];
  let now = profile.startTime;
  for (const delta of profile.timeDeltas) {
    now += delta;
    stamps.push(now);
  }
  return { windowed: true, keep: (index) => (stamps[index] ?? 0) >= fromUs && (stamps[index] ?? 0) <= toUs };
}

function add(totals: Map<string, number>, key: string, us: number): void {
  totals.set(key, (totals.get(key) ?? 0) + us);
}

/** A package name for dependencies, a workspace path for our own code, the file for Node's internals. */
export function moduleOf(frame: CallFrame): string {
  const url = frame.url.split('?')[0] ?? '';
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native: V8 builtins and C++ bindings)';
  if (url.startsWith('node:')) return url;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const dependency = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (dependency?.[1]) return dependency[1];
  const workspace = /packages\/([^/]+)\/(.*)$/.exec(path);
  if (workspace) return `@payframe/${workspace[1]}/${workspace[2]}`;
  return path;
}

function functionLabel(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  return `${name}  ${moduleOf(frame)}:${frame.lineNumber + 1}`;
}

export function formatProfileSummary(summary: ProfileSummary): string {
  const table = (title: string, rows: Share[]) => [
    `  ${title}`,
    ...rows.map(({ name, ms, percent }) => `    ${percent.toFixed(1).padStart(5)} %  ${String(ms).padStart(6)} ms  ${name}`),
  ];
  return [
    `CPU profile of the server (${summary.path})`,
    `  ${summary.windowed ? 'measured window only' : 'whole profile, boot and warm-up included'}: ` +
      `${summary.sampledMs} ms of main-thread wall time sampled, ${summary.busyMs} ms busy (JS, GC and blocking native calls), ` +
      `${summary.idlePercent} % idle in the event loop; percentages are of busy time`,
    '',
    ...table('self time by module', summary.selfByModule),
    '',
    ...table('self time by function', summary.selfByFunction),
    '',
    ...table('inclusive time by function (self + callees)', summary.inclusiveByFunction),
  ].join('\n');
}

// Run directly: summarise the files given on the command line, whole profile.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const path of process.argv.slice(2)) {
    const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
    console.log(formatProfileSummary(summarizeProfile(profile, { path, top: 30 })));
  }
}
