import { useState } from 'preact/hooks';
import { asApiError, type DashboardApiError } from './api/api-error.ts';

export type Action = {
  busy: boolean;
  error: DashboardApiError | undefined;
  /** Runs one mutation at a time; its failure is kept to be shown at the control that started it. */
  run: <T>(mutation: () => Promise<T>) => Promise<T | undefined>;
  /** Shows a failure found before any request, where an API error would be shown. */
  fail: (error: DashboardApiError) => void;
  clear: () => void;
};

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | undefined>(undefined);
  return {
    busy,
    error,
    fail: setError,
    clear: () => setError(undefined),
    run: async (mutation) => {
      setBusy(true);
      setError(undefined);
      try {
        return await mutation();
      } catch (failure) {
        setError(asApiError(failure));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
  };
}
