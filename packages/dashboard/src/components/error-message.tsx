import type { DashboardApiError } from '../api/api-error.ts';

/** An API failure where it happened: the server's message, and its code for support. */
export function ErrorMessage({ error, testId }: { error: DashboardApiError | undefined; testId?: string }) {
  if (error === undefined) return null;
  return (
    <p class="error" role="alert" data-testid={testId}>
      {error.message}
      {error.status > 0 && <span class="error-code"> ({error.code})</span>}
    </p>
  );
}
