import type { DashboardSession, Mode } from '@payframe/contract';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { LocationProvider, useLocation } from 'preact-iso';
import { type ClientOptions, createClient } from './api/client.ts';
import { type Dashboard, DashboardContext } from './context.ts';
import { Shell } from './layout/shell.tsx';
import { readMode, saveMode } from './mode-store.ts';
import { LoginPage } from './pages/login.tsx';
import { BASE, paths } from './paths.ts';
import { Routes } from './routes.tsx';

const SESSION_EXPIRED_NOTICE = 'Your session has expired, please sign in again';

type State = { status: 'loading' } | { status: 'signed-out'; notice?: string } | { status: 'signed-in'; session: DashboardSession };

export function App({ fetch }: Pick<ClientOptions, 'fetch'>) {
  return (
    <LocationProvider scope={BASE}>
      <DashboardApp fetch={fetch} />
    </LocationProvider>
  );
}

function DashboardApp({ fetch }: Pick<ClientOptions, 'fetch'>) {
  const { path, route } = useLocation();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [mode, setModeState] = useState<Mode>(readMode);
  const client = useMemo(
    () => createClient({ ...(fetch ? { fetch } : {}), onSessionExpired: () => setState({ status: 'signed-out', notice: SESSION_EXPIRED_NOTICE }) }),
    [fetch],
  );

  useEffect(() => {
    client.session().then(
      (session) => setState({ status: 'signed-in', session }),
      () => setState({ status: 'signed-out' }),
    );
  }, [client]);

  const redirect = redirectFor(state, path);
  useEffect(() => {
    if (redirect !== null) route(redirect, true);
  }, [redirect]);

  const dashboard = useMemo<Dashboard | null>(() => {
    if (state.status !== 'signed-in') return null;
    const setMode = (next: Mode) => {
      saveMode(next);
      setModeState(next);
    };
    return {
      client,
      session: state.session,
      mode,
      canWrite: state.session.user.role === 'admin',
      setMode,
      setAccountName: (name) => setState({ status: 'signed-in', session: { ...state.session, account: { ...state.session.account, name } } }),
      signOut: async () => {
        await client.logout().catch(() => undefined);
        setState({ status: 'signed-out' });
      },
    };
  }, [client, state, mode]);

  if (state.status === 'loading' || redirect !== null) return <p class="loading">Loading…</p>;
  if (state.status === 'signed-out') {
    return (
      <LoginPage
        client={client}
        notice={state.notice}
        onSignedIn={(session) => {
          // After every sign-in the dashboard shows test data first.
          saveMode('test');
          setModeState('test');
          setState({ status: 'signed-in', session });
        }}
      />
    );
  }
  return (
    <DashboardContext.Provider value={dashboard}>
      <Shell>
        <Routes />
      </Shell>
    </DashboardContext.Provider>
  );
}

/**
 * Where a path must go instead: the login page without a session. With one, signing in lands on
 * the home page, and `/dashboard` itself goes to the charges, as it always has.
 */
function redirectFor(state: State, path: string): string | null {
  if (state.status === 'loading') return null;
  if (state.status === 'signed-out') return path === paths.login ? null : paths.login;
  if (path === paths.login) return paths.overview;
  return path === paths.home || path === '/' ? paths.charges : null;
}
