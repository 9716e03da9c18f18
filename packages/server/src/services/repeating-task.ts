/**
 * Runs `task` every `everyMs` on a timer that does not keep the process alive, never two runs at
 * once: a turn that finds the previous run still going is skipped. A failed run is left for the
 * next turn to make good, so the caller decides what a failure means (see its uses).
 */
export function repeatingTask(everyMs: number, task: () => Promise<void>): { run(): void; stop(): void } {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    task()
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}
