import type { Mode } from '@payframe/contract';

const KEY = 'payframe-dashboard-mode';

/** The mode survives a reload of the tab, not a new sign-in (which starts in test). */
export function readMode(): Mode {
  try {
    return sessionStorage.getItem(KEY) === 'live' ? 'live' : 'test';
  } catch {
    return 'test';
  }
}

export function saveMode(mode: Mode): void {
  try {
    sessionStorage.setItem(KEY, mode);
  } catch {
    // Storage can be disabled; the mode then lasts until the page reloads.
  }
}
