/** Fee on capture: round(amount × rate) + fixed, with the rate in basis points so no float is involved. */
export type FeeSchedule = { rateBasisPoints: number; fixed: number };

export const DEFAULT_FEES: FeeSchedule = { rateBasisPoints: 260, fixed: 20 };

export function captureFee(amount: number, fees: FeeSchedule): number {
  return Math.floor((amount * fees.rateBasisPoints + 5_000) / 10_000) + fees.fixed;
}
