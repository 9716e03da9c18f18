import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useDashboard } from '../context.ts';
import { paths } from '../paths.ts';
import { ClockBanner, TestClockProvider } from '../test-clock.tsx';

const NAV: ReadonlyArray<{ testId: string | undefined; href: string; label: string }> = [
  { testId: 'nav-home', href: paths.overview, label: 'Home' },
  { testId: 'nav-charges', href: paths.charges, label: 'Charges' },
  { testId: 'nav-events', href: paths.events, label: 'Events' },
  { testId: 'nav-keys', href: paths.keys, label: 'API keys' },
  { testId: 'nav-webhooks', href: paths.webhooks, label: 'Webhooks' },
  { testId: 'nav-logs', href: paths.logs, label: 'Logs' },
  { testId: undefined, href: paths.clock, label: 'Test clock' },
  { testId: 'nav-settings', href: paths.settings, label: 'Settings' },
];

/** What every signed-in page shows around its content: the account, the mode, the navigation. */
export function Shell({ children }: { children: ComponentChildren }) {
  const { session, mode, setMode, signOut } = useDashboard();
  const { path } = useLocation();
  const other = mode === 'test' ? 'live' : 'test';
  return (
    <TestClockProvider>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class={`top mode-${mode}`}>
        <p class="account">
          <strong>{session.account.name}</strong>
          <span class="who">
            {session.user.email} · {session.user.role}
          </span>
        </p>
        <button
          type="button"
          class="mode-switch"
          data-testid="mode-switch"
          data-mode={mode}
          aria-label={`${mode === 'test' ? 'Test mode' : 'Live mode'}: switch to ${other} mode`}
          onClick={() => setMode(other)}
        >
          {mode === 'test' ? 'Test mode' : 'Live mode'}
        </button>
        <button type="button" data-testid="logout" onClick={() => void signOut()}>
          Sign out
        </button>
        <nav class="nav" aria-label="Dashboard">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <a href={item.href} data-testid={item.testId} aria-current={path.startsWith(item.href) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <ClockBanner />
        {children}
      </main>
    </TestClockProvider>
  );
}
