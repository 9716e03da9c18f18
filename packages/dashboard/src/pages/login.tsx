import type { DashboardSession } from '@payframe/contract';
import { useState } from 'preact/hooks';
import { asApiError } from '../api/api-error.ts';
import type { DashboardClient } from '../api/client.ts';
import { PageTitle } from '../components/page-title.tsx';

/** One text for every credential failure, so the page never tells which e-mail addresses exist. */
export const LOGIN_FAILED = 'The e-mail or password is not correct.';
const THROTTLED = 'Too many failed sign-ins. Wait a few minutes, then try again.';
const UNREACHABLE = 'The server could not be reached. Try again in a moment.';

type Props = { client: DashboardClient; notice: string | undefined; onSignedIn: (session: DashboardSession) => void };

export function LoginPage({ client, notice, onSignedIn }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await client.login({ email: email.trim(), password }));
    } catch (failure) {
      const { code, status } = asApiError(failure);
      setError(code === 'RATE_LIMITED' ? THROTTLED : status === 0 || status >= 500 ? UNREACHABLE : LOGIN_FAILED);
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login">
      <PageTitle title="Sign in">Sign in to Payframe</PageTitle>
      {notice !== undefined && error === null && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label for="login-email">E-mail</label>
        <input
          id="login-email"
          data-testid="login-email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
        <label for="login-password">Password</label>
        <input
          id="login-password"
          data-testid="login-password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
        />
        {error !== null && (
          <p class="error" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
        <button type="submit" data-testid="login-submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
