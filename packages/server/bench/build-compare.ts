/**
 * `npm run bench -- --against OTHER/packages/server/bin/payframe.js [--scenario flow|get|tokens]
 * [--seconds 16] [--slice 1]`: this build against another, side by side in alternating slices
 * (side-by-side.ts), each on its own fresh store: what a change bought, apart from the host's
 * drift. The other build is a copy of `packages/server/{bin,dist}` made before the change, kept
 * where it resolves the same node_modules (docs/performance.md "Method").
 */
import type { Options } from './options.ts';
import { cpuAdded, measureSideBySide, sideReport, signedPercent, throughputLost } from './side-by-side.ts';

export async function runBuildComparison(options: Options): Promise<void> {
  const [current, other] = await measureSideBySide(options, [
    { name: 'this build', options, bin: 'this' },
    { name: `against ${options.against}`, options, bin: 'against' },
  ]);
  const gained = -throughputLost(current, other);
  const cpu = cpuAdded(current, other);
  console.log(
    sideReport(
      '--against',
      options,
      [current, other],
      [`requests/s of this build against the other: ${signedPercent(gained)}`, `server CPU per request of this build against the other: ${signedPercent(cpu)}`],
    ),
  );
}
