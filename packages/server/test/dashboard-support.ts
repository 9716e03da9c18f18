import { execFile } from 'node:child_process';
import { PAYFRAME_BIN } from '@payframe/server/process';
import { randomIds } from '../src/ids.ts';
import { hashPassword, type PasswordHash } from '../src/security/passwords.ts';
import { createUser as createDashboardUser } from '../src/services/dashboard-users.ts';
import { type ApiResponse, type Client, client, resolveTarget, type Target } from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess, withStoreOf } from './harness.ts';

/**
 * A browser's view of the dashboard API over real HTTP: it keeps the session cookie it is given,
 * sends the page's own Origin and, once signed in, the session's CSRF token on mutations.
 */
export function dashboardClient(target: Target, options: { origin?: string | null } = {}) {
  const { url: baseUrl, fetch } = resolveTarget(target);
  let cookie: string | undefined;
  let csrfToken: string | undefined;
  const origin = options.origin === undefined ? new URL(baseUrl).origin : options.origin;

  async function request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (method !== 'GET' && origin !== null) headers.origin = origin;
    if (method !== 'GET' && csrfToken && extra.csrf !== false) headers['x-csrf-token'] = csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, extra.headers);
    const response = await fetch(`${baseUrl}/dashboard/api${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('payframe_session=')) {
      const value = setCookie.split(';')[0] ?? '';
      cookie = value === 'payframe_session=' ? undefined : value;
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  return {
    request,
    get: <T = any>(path: string, extra?: { headers?: Record<string, string> }) => request<T>('GET', path, undefined, extra),
    post: <T = any>(path: string, body?: unknown, extra?: { headers?: Record<string, string>; csrf?: boolean }) => request<T>('POST', path, body, extra),
    async login(email: string, password: string) {
      const answer = await request('POST', '/login', { email, password });
      if (answer.status === 200) csrfToken = answer.body.csrfToken;
      return answer;
    },
    get cookie() {
      return cookie;
    },
    setCookie(value: string | undefined) {
      cookie = value;
    },
  };
}
export type DashboardClient = ReturnType<typeof dashboardClient>;

/**
 * A dashboard user, made by the service `payframe users create` calls, in this process (a CLI process
 * costs about a second of CPU); dashboard-cli.test.ts runs the command itself.
 */
export async function createUser(dataDir: string, account: string, email: string, role: 'admin' | 'viewer', password: string): Promise<void> {
  await withStoreOf(dataDir, (store) => createDashboardUser(store, randomIds, { account, email, role, password }, Date.now(), hashOnce));
}

/**
 * Each password's scrypt hash, made once per test worker: the suite makes over a hundred users with
 * a handful of passwords, and a hash at the production cost is about a tenth of a second of CPU.
 * A hash is a salt and a key, and the server verifies a reused one like any other.
 */
const hashes = new Map<string, Promise<PasswordHash>>();
function hashOnce(password: string): Promise<PasswordHash> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

/** `keepOpen`: write the input but never end standard input, as a writer that keeps the pipe open. */
export function runWithStdin(args: string[], input: string, options: { keepOpen?: boolean } = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [PAYFRAME_BIN, ...args], (error, stdout, stderr) => {
      child.stdin?.destroy();
      resolve({ stdout, stderr, code: error ? Number((error as { code?: number }).code ?? 1) : 0 });
    });
    if (options.keepOpen) child.stdin?.write(input);
    else child.stdin?.end(input);
  });
}

export const ADMIN = { email: 'admin@shop.test', password: 'correct horse battery' } as const;
export const VIEWER = { email: 'viewer@shop.test', password: 'viewer password 1' } as const;

/** What a TLS-terminating proxy the server trusts adds: live mode needs it (or TLS). */
export const HTTPS = { headers: { 'x-forwarded-proto': 'https' } } as const;

export type DashboardFixture = { server: InProcessTestServer; api: Client; admin: DashboardClient; viewer: DashboardClient };

/** A server, a secret-key client of `account`, and that account's admin and viewer, each signed in. */
/** The proxy on 127.0.0.1 is trusted, so that a test can ask for live mode over HTTPS (`HTTPS` below). */
export async function dashboardFixture(account: string): Promise<DashboardFixture> {
  const server = await startInProcess({ args: ['--trust-proxy', '127.0.0.1'] });
  const api = client(server, (await createKeys(server.dataDir, account)).secretKey);
  await createUser(server.dataDir, account, ADMIN.email, 'admin', ADMIN.password);
  await createUser(server.dataDir, account, VIEWER.email, 'viewer', VIEWER.password);
  const admin = dashboardClient(server);
  const viewer = dashboardClient(server);
  for (const [user, { email, password }] of [
    [admin, ADMIN],
    [viewer, VIEWER],
  ] as const) {
    const answer = await user.login(email, password);
    if (answer.status !== 200) throw new Error(`${email} could not sign in: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return { server, api, admin, viewer };
}
