import { useEffect, useState } from 'preact/hooks';
import { asApiError, type DashboardApiError } from './api/api-error.ts';

export type Resource<T> = {
  data: T | undefined;
  error: DashboardApiError | undefined;
  loading: boolean;
  reload: () => void;
  /** Replaces the data with what a mutation answered. */
  set: (data: T) => void;
};

/** What one request returned, fetched again whenever `deps` change; a page's data is nothing more. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: DashboardApiError; loading: boolean }>({ loading: true });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: asApiError(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, version]);
  return {
    data: state.data,
    error: state.error,
    loading: state.loading,
    reload: () => setVersion((value) => value + 1),
    set: (data) => setState({ data, loading: false }),
  };
}
