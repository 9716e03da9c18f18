import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One vitest project per package; the server's API tests start real server processes. Every
 * project but `packed` runs its files without isolation (`isolate: false`): one module graph per
 * worker, not per file, which took a third to a half of each project's CPU. Files share nothing
 * else: each starts its own servers on its own store, and restores the globals, timers and spies
 * it changes.
 */
export default defineConfig({
  test: {
    // Most files wait on the server processes they started, not on their own CPU: one worker more
    // than there are cores keeps the cores busy (vitest's default, cores - 1, is one worker on 2 cores).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          name: 'contract',
          isolate: false,
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          // One module graph per worker, not per file: evaluating the server's sources again for each
          // file was a third of the project's CPU. Files share nothing else: each starts its own
          // servers on its own store and restores what it changes.
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Several instances on one shared database: PostgreSQL only.
          exclude: ['test/postgres/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The hosted 3-D Secure page renders on the server only: plain node.
        test: {
          name: 'threeds',
          isolate: false,
          root: 'packages/threeds',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
      {
        // The widget's unit tests run in happy-dom; the bundle-size test builds with vite in node.
        test: {
          name: 'widget',
          isolate: false,
          root: 'packages/widget',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
          environment: 'happy-dom',
          testTimeout: 30_000,
        },
      },
      {
        // The dashboard's components in happy-dom against a fake fetch; the bundle-size test builds with vite in node.
        test: {
          name: 'dashboard',
          isolate: false,
          root: 'packages/dashboard',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
          environment: 'happy-dom',
          environmentOptions: { happyDOM: { url: 'http://127.0.0.1:4000/dashboard' } },
          testTimeout: 30_000,
        },
      },
      {
        // Page render tests (beside the pages) parse the HTML in happy-dom; test/ runs the shop against a real `payframe serve`.
        test: {
          name: 'demo-shop',
          isolate: false,
          root: 'packages/demo-shop',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
          // Parsed pages stay inert: no stylesheet or script is fetched.
          environmentOptions: {
            happyDOM: { settings: { disableCSSFileLoading: true, disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } },
          },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'qa-kit',
          isolate: false,
          root: 'packages/qa-kit',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // @payframe/node against real server processes, and its build imported by plain Node.
        test: {
          name: 'node',
          isolate: false,
          root: 'packages/node',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The packed tarballs (README, "Using Payframe in another project") installed into a project outside the repository and used from there.
        // The test command runs it on its own, after the others: its npm install, strict type check and
        // browser would otherwise take the cores from the API tests' server processes and their timeouts.
        test: {
          name: 'packed',
          root: 'tests',
          include: ['packed-install.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        // The API tests whose behaviour goes through code that differs by store (repositories, SQL,
        // transactions and locks, migrations, sweeps, leases, sessions), again on PostgreSQL, with
        // the multi-instance tests that need it. What answers before storage or never reaches it
        // (parsing, validation, headers, documents, the CLI's and the server's process, the
        // acquirer simulator's decisions, clients of the HTTP API) runs on SQLite only: it would
        // answer the same on either store.
        test: {
          name: 'server-postgres',
          root: 'packages/server',
          isolate: false,
          include: [
            'test/postgres/**/*.test.ts',
            'test/capture-metadata.test.ts',
            'test/card-data.test.ts',
            'test/charges.test.ts',
            'test/concurrent-migrate.test.ts',
            'test/crash-safety.test.ts',
            'test/dashboard-api.test.ts',
            'test/dashboard-cli.test.ts',
            'test/dashboard-merchant.test.ts',
            'test/dashboard-overview-logs.test.ts',
            'test/dashboard-search.test.ts',
            'test/dashboard-sessions.test.ts',
            'test/event-stream.test.ts',
            'test/events.test.ts',
            'test/events-recorded.test.ts',
            'test/expire-helpers.test.ts',
            'test/expiry.test.ts',
            'test/idempotency.test.ts',
            'test/idempotency-at-rest.test.ts',
            'test/idempotency-scope.test.ts',
            'test/isolation.test.ts',
            'test/lists.test.ts',
            'test/metrics.test.ts',
            'test/races.test.ts',
            'test/refunds.test.ts',
            'test/request-log-migration.test.ts',
            'test/seed.test.ts',
            'test/smoke.test.ts',
            'test/threeds-page.test.ts',
            'test/token-expiry.test.ts',
            'test/webhook-crash.test.ts',
            'test/webhook-delivery.test.ts',
            'test/webhook-endpoints.test.ts',
            'test/webhook-fairness.test.ts',
            'test/webhook-leases.test.ts',
          ],
          globalSetup: ['test/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
