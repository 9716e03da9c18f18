import { z } from 'zod';
import { integerBounds, integerField } from './fields.ts';

/** Ten years: far enough for any expiry scenario, small enough to keep dates sane. */
const MAX_CLOCK_ADVANCE_SECONDS = 315_360_000;

export const AdvanceClockBodySchema = z.strictObject({
  advance_seconds: integerField('must be a positive integer of seconds')
    .pipe(
      z
        .number()
        .int()
        .positive({ error: 'must be a positive integer of seconds' })
        .max(MAX_CLOCK_ADVANCE_SECONDS, { error: `must be at most ${MAX_CLOCK_ADVANCE_SECONDS}` }),
    )
    .meta(integerBounds(1, MAX_CLOCK_ADVANCE_SECONDS)),
});
export type AdvanceClockBody = z.infer<typeof AdvanceClockBodySchema>;

export const TestClockSchema = z.object({ type: z.literal('test_clock'), now: z.number().int(), offset: z.number().int() }).meta({ id: 'TestClock' });
export type TestClock = z.infer<typeof TestClockSchema>;

export const AuthenticateBodySchema = z.strictObject({
  result: z.enum(['success', 'failure'], { error: 'must be success or failure' }),
});
export type AuthenticateBody = z.infer<typeof AuthenticateBodySchema>;
