import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_TOKEN, charges, error, type FakeApi, fakeApi, list, openDashboard, overview, session } from '../test-support.tsx';
import { LOGIN_FAILED } from './login.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function signedOutApi(): FakeApi {
  return fakeApi()
    .on('GET /session', () => error('SESSION_EXPIRED', 'Sign in to continue.'))
    .on('GET /charges', list('/dashboard/api/charges', charges(3, 3)))
    .on('GET /overview', overview());
}

async function signIn(email: string, password: string) {
  fireEvent.input(await screen.findByTestId('login-email'), { target: { value: email } });
  fireEvent.input(screen.getByTestId('login-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

describe('login', () => {
  it('sends a visitor without a session from /dashboard to the login page', async () => {
    openDashboard(signedOutApi(), '/dashboard');
    expect(await screen.findByTestId('login-email')).toBeTruthy();
    expect(location.pathname).toBe('/dashboard/login');
    expect(screen.queryByText(/session has expired/)).toBeNull();
  });

  it('sends a visitor with a session from /dashboard to the charges, and from the login page to home', async () => {
    const api = signedOutApi().on('GET /session', session());
    openDashboard(api, '/dashboard');
    await waitFor(() => expect(location.pathname).toBe('/dashboard/charges'));
    cleanup();
    openDashboard(api, '/dashboard/login');
    expect(await screen.findByTestId('overview-count')).toBeTruthy();
    expect(location.pathname).toBe('/dashboard/home');
  });

  it('shows the same text for a wrong password, an unknown e-mail and a malformed one', async () => {
    const api = signedOutApi();
    const answers = [
      error('INVALID_CREDENTIALS', 'Invalid e-mail or password.'),
      error('INVALID_CREDENTIALS', 'Invalid e-mail or password.'),
      error('PARAMETER_INVALID', 'must be an e-mail address', 'email'),
    ];
    api.on('POST /login', () => answers.shift() ?? error('INVALID_CREDENTIALS', 'Invalid e-mail or password.'));
    openDashboard(api, '/dashboard/login');
    const shown: string[] = [];
    for (const email of ['demo@payframe.test', 'nobody@payframe.test', 'not-an-email']) {
      await signIn(email, 'wrong password 1');
      await waitFor(() => expect(api.requests.filter((request) => request.path === '/login')).toHaveLength(shown.length + 1));
      shown.push((await screen.findByTestId('login-error')).textContent ?? '');
    }
    expect(shown).toEqual([LOGIN_FAILED, LOGIN_FAILED, LOGIN_FAILED]);
    expect(api.last('POST /login')?.body).toEqual({ email: 'not-an-email', password: 'wrong password 1' });
  });

  it('signs in to the home page in test mode, whatever mode the tab last showed', async () => {
    sessionStorage.setItem('payframe-dashboard-mode', 'live');
    const api = signedOutApi().on('POST /login', session());
    openDashboard(api, '/dashboard/charges');
    await signIn('demo@payframe.test', 'correct horse battery');
    expect(await screen.findByTestId('overview-count')).toBeTruthy();
    expect(location.pathname).toBe('/dashboard/home');
    expect(screen.getByTestId('mode-switch').dataset.mode).toBe('test');
    expect(api.last('GET /overview')?.query.get('mode')).toBe('test');
  });

  it('signs out: the logout carries the CSRF token and the login page comes back', async () => {
    const api = signedOutApi().on('GET /session', session()).on('POST /logout', { ok: true });
    openDashboard(api, '/dashboard/charges');
    fireEvent.click(await screen.findByTestId('logout'));
    expect(await screen.findByTestId('login-email')).toBeTruthy();
    expect(location.pathname).toBe('/dashboard/login');
    expect(api.last('POST /logout')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
  });
});

describe('an expired session', () => {
  it('sends the user to the login page with a message', async () => {
    const api = signedOutApi()
      .on('GET /session', session())
      .on('GET /charges', () => error('SESSION_EXPIRED', 'The session has expired.'));
    openDashboard(api, '/dashboard/charges');
    expect(await screen.findByText('Your session has expired, please sign in again')).toBeTruthy();
    expect(location.pathname).toBe('/dashboard/login');
    expect(screen.getByTestId('login-email')).toBeTruthy();
  });
});
