/**
 * `npm run bench -- --store postgres --instances compare [--scenario flow] [--seconds 16] [--slice 1]`:
 * whether two instances serve at least as fast as one. One instance on one throwaway database and
 * two on another, on the same PostgreSQL server, side by side in alternating slices
 * (side-by-side.ts): the host's drift, which moves pgbench between the runs of `--vs-floor`, falls
 * on both alike. Target: two at least as fast as one.
 */
import type { Options } from './options.ts';
import { cpuAdded, measureSideBySide, sideReport, signedPercent, throughputLost } from './side-by-side.ts';

export async function runInstancesComparison(options: Options): Promise<void> {
  const [two, one] = await measureSideBySide(options, [
    { name: 'two instances', options, instances: 2 },
    { name: 'one instance', options, instances: 1 },
  ]);
  const gained = -throughputLost(two, one);
  console.log(
    sideReport(
      '--instances compare',
      options,
      [two, one],
      [
        `requests/s of two instances against one: ${signedPercent(gained)} (target: at least as fast) ${gained >= 0 ? 'PASS' : 'MISS'}`,
        `server CPU per request of two instances against one: ${signedPercent(cpuAdded(two, one))}`,
      ],
    ),
  );
}
