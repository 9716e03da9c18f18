import type { Mode } from '@payframe/contract';

/** Test-mode objects live on the account's test clock, which only ever moves forward. */
export function accountNow(realNow: number, mode: Mode, testClockOffsetSeconds: number): number {
  return mode === 'test' ? realNow + testClockOffsetSeconds * 1000 : realNow;
}

export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** UTC `YYYY-MM-DDThh:mm:ss`, the refund timestamp shape of the spec. */
export function isoSecondsUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Where the server reads the time: injected, so that expiry and races are testable without sleeping. */
export type Clock = { now(): number };
