/**
 * `npm run bench -- --request-log compare [--scenario flow|get|tokens] [--seconds 16] [--slice 1]`:
 * what the request log costs the API's throughput. One server keeps the request log, one runs with
 * `--request-log off`, side by side in alternating slices (side-by-side.ts). Target: at most 10 %.
 */
import type { Options } from './options.ts';
import { cpuAdded, lostVerdict, measureSideBySide, sideReport, signedPercent, throughputLost } from './side-by-side.ts';

export async function runRequestLogComparison(options: Options): Promise<void> {
  const [on, off] = await measureSideBySide(options, [
    { name: 'request log on', options: { ...options, requestLog: 'on' } },
    { name: 'request log off', options: { ...options, requestLog: 'off' } },
  ]);
  const lost = throughputLost(on, off);
  const cpu = cpuAdded(on, off);
  console.log(
    sideReport(
      '--request-log compare',
      options,
      [on, off],
      [lostVerdict('with the request log', lost), `server CPU per request with the request log: ${signedPercent(cpu)}`],
    ),
  );
}
