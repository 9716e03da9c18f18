import { lazy, Route, Router } from 'preact-iso';
import { BASE, paths } from './paths.ts';

// One chunk a page, fetched the first time the page is opened.
const ChargesPage = lazy(() => import('./pages/charges.tsx').then((page) => page.ChargesPage));
const ChargePage = lazy(() => import('./pages/charge.tsx').then((page) => page.ChargePage));
const KeysPage = lazy(() => import('./pages/keys.tsx').then((page) => page.KeysPage));
const WebhooksPage = lazy(() => import('./pages/webhooks.tsx').then((page) => page.WebhooksPage));
const EventsPage = lazy(() => import('./pages/events.tsx').then((page) => page.EventsPage));
const ClockPage = lazy(() => import('./pages/clock.tsx').then((page) => page.ClockPage));
const SettingsPage = lazy(() => import('./pages/settings.tsx').then((page) => page.SettingsPage));
const HomePage = lazy(() => import('./pages/home.tsx').then((page) => page.HomePage));
const LogsPage = lazy(() => import('./pages/logs.tsx').then((page) => page.LogsPage));
const NotFoundPage = lazy(() => import('./pages/not-found.tsx').then((page) => page.NotFoundPage));

/** The signed-in pages; the login page and the `/dashboard` redirect live in the app shell. */
export function Routes() {
  return (
    <Router>
      <Route path={paths.overview} component={HomePage} />
      <Route path={paths.logs} component={LogsPage} />
      <Route path={paths.charges} component={ChargesPage} />
      <Route path={`${BASE}/charges/:id`} component={ChargePage} />
      <Route path={paths.keys} component={KeysPage} />
      <Route path={paths.webhooks} component={WebhooksPage} />
      <Route path={paths.events} component={EventsPage} />
      <Route path={paths.clock} component={ClockPage} />
      <Route path={paths.settings} component={SettingsPage} />
      <Route default component={NotFoundPage} />
    </Router>
  );
}
