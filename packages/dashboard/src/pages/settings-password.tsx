import { DASHBOARD_MIN_PASSWORD_LENGTH } from '@payframe/contract';
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { useDashboard } from '../context.ts';
import { useAction } from '../use-action.ts';

/** Every user changes their own password; the change signs out their other sessions. */
export function ChangePassword() {
  const { client } = useDashboard();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [saved, setSaved] = useState(false);
  const action = useAction();

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    if ((await action.run(() => client.changePassword({ current_password: current, new_password: next }))) === undefined) return;
    setCurrent('');
    setNext('');
    setSaved(true);
  };

  return (
    <section class="password" aria-labelledby="password-title">
      <h2 id="password-title">Your password</h2>
      <form class="stacked-form" onSubmit={save}>
        <label for="password-current">Current password</label>
        <input
          id="password-current"
          data-testid="password-current"
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onInput={(event) => setCurrent(event.currentTarget.value)}
        />
        <label for="password-new">New password (at least {DASHBOARD_MIN_PASSWORD_LENGTH} characters)</label>
        <input
          id="password-new"
          data-testid="password-new"
          type="password"
          autocomplete="new-password"
          required
          minLength={DASHBOARD_MIN_PASSWORD_LENGTH}
          value={next}
          onInput={(event) => setNext(event.currentTarget.value)}
        />
        <button type="submit" data-testid="password-save" disabled={action.busy}>
          Change password
        </button>
        <p role="status">{saved ? 'Password changed. Your other sessions are signed out.' : ''}</p>
        <ErrorMessage error={action.error} testId="action-error" />
      </form>
    </section>
  );
}
