import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** One vitest project per package; the server's API tests start real server processes. */
export default defineConfig({
  test: {
    // Most files wait on the server processes they started, not on their own CPU: one worker more
    // than there are cores keeps the cores busy (vitest's default, cores - 1, is one worker on 2 cores).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          root: 'packages/server',
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
          root: 'packages/threeds',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
      {
        // The widget's unit tests run in happy-dom; the bundle-size test builds with vite in node.
        test: {
          name: 'widget',
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
          root: 'packages/qa-kit',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // @payframe/node against real server processes, and its build imported by plain Node.
        test: {
          name: 'node',
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
        // The API suite against PostgreSQL, but for files whose behaviour cannot depend on the store:
        // what only concerns the SQLite files, the CLI's process, and the HTTP layer's parsing,
        // headers and documents, which answer before any storage is touched.
        test: {
          name: 'server-postgres',
          root: 'packages/server',
          include: ['test/**/*.test.ts'],
          exclude: [
            'test/server-fault.test.ts',
            'test/cli.test.ts',
            'test/temp-files.test.ts',
            'test/file-modes.test.ts',
            'test/backup-restore.test.ts',
            'test/cli-help.test.ts',
            'test/api-doc-snippets.test.ts',
            'test/openapi.test.ts',
            'test/dashboard-assets.test.ts',
            'test/security-headers.test.ts',
            'test/http-framing.test.ts',
            'test/limits.test.ts',
            'test/multipart.test.ts',
            'test/return-url.test.ts',
            'test/transport.test.ts',
            'test/log-redaction.test.ts',
          ],
          globalSetup: ['test/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
