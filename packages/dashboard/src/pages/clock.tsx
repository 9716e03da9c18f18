import { useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { useDashboard } from '../context.ts';
import { dateTime } from '../format.ts';
import { formatOffset, useTestClock } from '../test-clock.tsx';
import { useAction } from '../use-action.ts';
import { useResource } from '../use-resource.ts';

const DAY_SECONDS = 86_400;

/** The account's test clock: it moves test-mode charges through time (a pending charge expires after 7 days). */
export function ClockPage() {
  const { mode } = useDashboard();
  return (
    <>
      <PageTitle title="Test clock">Test clock</PageTitle>
      {mode === 'test' ? <TestClock /> : <p>The test clock moves test-mode charges only. Switch to test mode to use it.</p>}
    </>
  );
}

function TestClock() {
  const { client, canWrite } = useDashboard();
  const { setOffset } = useTestClock();
  const clock = useResource(() => client.getClock(), []);
  const [days, setDays] = useState('7');
  const action = useAction();
  const whole = /^\d+$/.test(days.trim()) && Number(days) > 0;

  const advance = async (event: Event) => {
    event.preventDefault();
    if (!whole) return;
    const moved = await action.run(() => client.advanceClock({ advance_seconds: Number(days) * DAY_SECONDS }));
    if (moved === undefined) return;
    clock.set(moved);
    setOffset(moved.offset);
  };

  return (
    <>
      <ErrorMessage error={clock.error} />
      {clock.data !== undefined && (
        <p>
          Test-mode time is{' '}
          <time data-testid="clock-now" dateTime={new Date(clock.data.now * 1000).toISOString()}>
            {dateTime(clock.data.now)}
          </time>
          {clock.data.offset > 0 && `, ${formatOffset(clock.data.offset)} ahead of real time`}.
        </p>
      )}
      {canWrite && (
        <form class="inline-form" onSubmit={advance}>
          <label for="clock-advance-days">Advance by days</label>
          <input
            id="clock-advance-days"
            data-testid="clock-advance-days"
            type="number"
            min="1"
            step="1"
            inputMode="numeric"
            aria-invalid={!whole}
            value={days}
            onInput={(event) => setDays(event.currentTarget.value)}
          />
          <button type="submit" data-testid="clock-advance" disabled={action.busy || !whole}>
            Advance the clock
          </button>
          <ErrorMessage error={action.error} testId="action-error" />
        </form>
      )}
    </>
  );
}
