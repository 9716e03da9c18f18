import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useDashboard } from './context.ts';
import { dateTime } from './format.ts';

const DAY_SECONDS = 86_400;

type TestClock = {
  /** Seconds the account's test clock runs ahead of real time. */
  offset: number;
  setOffset: (offset: number) => void;
};

const TestClockContext = createContext<TestClock>({ offset: 0, setOffset: () => undefined });

/**
 * The account's test-clock offset, read again on every page opened (the API or another user may
 * have moved the clock meanwhile) and set at once when the clock page moves it.
 */
export function TestClockProvider({ children }: { children: ComponentChildren }) {
  const { client } = useDashboard();
  const { path } = useLocation();
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    let current = true;
    client.getClock().then(
      (clock) => current && setOffset(clock.offset),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, path]);
  const value = useMemo(() => ({ offset, setOffset }), [offset]);
  return <TestClockContext.Provider value={value}>{children}</TestClockContext.Provider>;
}

export function useTestClock(): TestClock {
  return useContext(TestClockContext);
}

/**
 * Times of the server's real clock (a key's creation and use, a delivery's next attempt) as the
 * mode's clock shows them: in test mode, on the test clock, as charges and events already are.
 */
export function useRealTime(): (epochSeconds: number) => string {
  const { mode } = useDashboard();
  const { offset } = useTestClock();
  return (epochSeconds) => dateTime(mode === 'test' ? epochSeconds + offset : epochSeconds);
}

/** `7 d 2 h`, `3 h 5 min`. */
export function formatOffset(seconds: number): string {
  const days = Math.floor(seconds / DAY_SECONDS);
  const hours = Math.floor((seconds % DAY_SECONDS) / 3600);
  return days > 0 ? `${days} d ${hours} h` : `${hours} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** On every page while the test clock is ahead: test-mode times are on it, not on the wall clock. */
export function ClockBanner() {
  const { offset } = useTestClock();
  if (offset <= 0) return null;
  return (
    <p class="notice clock-banner" role="status" data-testid="clock-banner" data-offset={offset}>
      The test clock is {formatOffset(offset)} ahead of real time: test-mode times are shown on it.
    </p>
  );
}
