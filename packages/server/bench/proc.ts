/**
 * What the bench reads about processes from Linux's /proc: memory (VmRSS sampled while the load
 * runs, VmHWM, the kernel's own peak, read at the end) and CPU time. Each answers null elsewhere.
 */
import { readFileSync } from 'node:fs';

const RSS_SAMPLE_MS = 250;

/** A field of /proc/<pid>/status in MB. */
export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null; // not Linux, or the process is gone
  }
}

/** utime + stime of a process in ms, from /proc/<pid>/stat (clock ticks are 100 Hz on Linux). */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Busy CPU time of the whole box in ms (all cores, idle and iowait excluded), from /proc/stat. */
export function boxBusyMs(): number | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: all but idle (3) and iowait (4) is busy.
    const busy = fields.slice(0, 8).reduce((sum, ticks, index) => (index === 3 || index === 4 ? sum : sum + ticks), 0);
    return busy * 10;
  } catch {
    return null;
  }
}

/** Samples VmRSS every 250 ms; `stop()` ends sampling and answers the largest value seen. */
export function sampleRss(pid: number): { stop(): number | null } {
  let maxRssMb: number | null = null;
  const timer = setInterval(() => {
    const rssMb = procStatusMb(pid, 'VmRSS');
    if (rssMb !== null) maxRssMb = Math.max(maxRssMb ?? 0, rssMb);
  }, RSS_SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return maxRssMb;
    },
  };
}
