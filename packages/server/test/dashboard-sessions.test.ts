import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createCharge, expectErrorShape, TEST_PANS } from './client.ts';
import { ADMIN, createUser, dashboardClient, VIEWER } from './dashboard-support.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

// The proxy is trusted so that each test signs in from an address of its own (X-Forwarded-For):
// failed sign-ins are counted per address, and one test's failures must not throttle another's.
let server: InProcessTestServer;
let addresses = 0;
const from = () => ({ 'x-forwarded-for': `198.51.100.${++addresses}` });

beforeAll(async () => {
  server = await startInProcess({ args: ['--trust-proxy', '127.0.0.1'] });
  await createUser(server.dataDir, 'shop', ADMIN.email, 'admin', ADMIN.password);
  await createUser(server.dataDir, 'shop', VIEWER.email, 'viewer', VIEWER.password);
});
afterAll(() => server?.stop());

function signIn(email: string, password: string, headers: Record<string, string> = from()) {
  const dashboard = dashboardClient(server);
  return { dashboard, answer: dashboard.request('POST', '/login', { email, password }, { headers }) };
}

describe('signing in and out', () => {
  it('sets an HttpOnly, SameSite=Strict cookie on /dashboard and answers the session with its CSRF token', async () => {
    const dashboard = dashboardClient(server);
    const answer = await dashboard.login(ADMIN.email.toUpperCase(), ADMIN.password);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      user: { email: ADMIN.email, role: 'admin' },
      account: { id: expect.any(String), name: 'shop' },
      csrfToken: expect.any(String),
    });
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^payframe_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('Path=/dashboard');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure'); // plain HTTP here; Secure over HTTPS
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const session = await dashboard.get('/session');
    expect(session).toMatchObject({ status: 200, body: answer.body });
  });

  it('logs out: the cookie is cleared and the session it named is gone for good', async () => {
    const dashboard = dashboardClient(server);
    await dashboard.login(ADMIN.email, ADMIN.password);
    const kept = dashboard.cookie;
    const out = await dashboard.post('/logout');
    expect(out).toMatchObject({ status: 200, body: { ok: true } });
    expect(out.headers.get('set-cookie')).toMatch(/^payframe_session=;.*Path=\/dashboard/);
    dashboard.setCookie(kept);
    const after = await dashboard.get('/session');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('SESSION_EXPIRED');
  });

  it('answers 401 SESSION_EXPIRED without a cookie or with an unknown one', async () => {
    const dashboard = dashboardClient(server);
    const none = await dashboard.get('/charges?mode=test');
    expect(none.status).toBe(401);
    expectErrorShape(none.body);
    expect(none.body.error.code).toBe('SESSION_EXPIRED');
    dashboard.setCookie('payframe_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await dashboard.get('/session')).body.error.code).toBe('SESSION_EXPIRED');
  });

  it('a viewer may sign out', async () => {
    const dashboard = dashboardClient(server);
    await dashboard.login(VIEWER.email, VIEWER.password);
    expect((await dashboard.post('/logout')).status).toBe(200);
  });
});

describe('no user enumeration', () => {
  it('an unknown e-mail and a wrong password get the same status and text, in similar time', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await signIn(email, 'not the password at all').answer;
      return { answer, ms: performance.now() - started };
    };
    // Warm both paths once, then compare the medians of interleaved samples: one sample of each
    // on a shared host can differ by more than the work does. Four failures per e-mail stay under
    // the throttle's five, on a user only this test signs in as.
    await createUser(server.dataDir, 'shop', 'timing@shop.test', 'admin', 'the right password');
    await timed('nobody-timing@shop.test');
    await timed('timing@shop.test');
    const unknowns: number[] = [];
    const wrongs: number[] = [];
    let unknown = await timed('nobody-timing@shop.test');
    let wrong = await timed('timing@shop.test');
    for (let sample = 0; sample < 2; sample++) {
      unknowns.push(unknown.ms);
      wrongs.push(wrong.ms);
      unknown = await timed('nobody-timing@shop.test');
      wrong = await timed('timing@shop.test');
    }
    unknowns.push(unknown.ms);
    wrongs.push(wrong.ms);
    expect(unknown.answer.status).toBe(401);
    expect(wrong.answer.status).toBe(401);
    expect(unknown.answer.body).toEqual(wrong.answer.body);
    expect(wrong.answer.body.error.code).toBe('INVALID_CREDENTIALS');
    // Both pay for one scrypt: neither answers in a fraction of the other's time.
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const [unknownMs, wrongMs] = [median(unknowns), median(wrongs)];
    expect(Math.min(unknownMs, wrongMs) * 4, `unknown ${unknowns.join(', ')} ms; wrong ${wrongs.join(', ')} ms`).toBeGreaterThan(Math.max(unknownMs, wrongMs));
  });
});

describe('throttling failed sign-ins', () => {
  it('after 5 failures for an e-mail, every attempt (the right password too, from anywhere) gets 429 with Retry-After', async () => {
    await createUser(server.dataDir, 'shop', 'throttled@shop.test', 'admin', 'the right password');
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn('throttled@shop.test', 'wrong password!', from()).answer).status).toBe(401);
    }
    const refused = await signIn('throttled@shop.test', 'the right password', from()).answer;
    expect(refused.status).toBe(429);
    expectErrorShape(refused.body);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Other users are not affected.
    expect((await signIn(ADMIN.email, ADMIN.password, from()).answer).status).toBe(200);
  });

  it('after 5 failures from an address, that address is refused for every e-mail', async () => {
    const address = from();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(`guess${attempt}@shop.test`, 'wrong password!', address).answer).status).toBe(401);
    }
    const refused = await signIn(ADMIN.email, ADMIN.password, address).answer;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(ADMIN.email, ADMIN.password, from()).answer).status).toBe(200);
  });

  it('checks at most 5 passwords of 40 concurrent wrong guesses and the right one: the right one is answered 429', async () => {
    await createUser(server.dataDir, 'shop', 'raced@shop.test', 'admin', 'the right password');
    const guesses = Array.from({ length: 40 }, () => signIn('raced@shop.test', 'wrong password!', from()).answer);
    const right = signIn('raced@shop.test', 'the right password', from()).answer;
    const answers = await Promise.all(guesses);
    const statuses = answers.map((answer) => answer.status);
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked, `statuses: ${statuses.join(' ')}`).toBeGreaterThan(0);
    expect(checked, `statuses: ${statuses.join(' ')}`).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - checked);
    expect((await right).status).toBe(429);
  });

  it('does not count a sign-in that succeeds', async () => {
    const address = from();
    await createUser(server.dataDir, 'shop', 'regular@shop.test', 'admin', 'the right password');
    for (let attempt = 0; attempt < 6; attempt++) {
      expect((await signIn('regular@shop.test', 'the right password', address).answer).status).toBe(200);
    }
    expect((await signIn('regular@shop.test', 'wrong password!', address).answer).status).toBe(401);
    expect((await signIn('regular@shop.test', 'the right password', address).answer).status).toBe(200);
  });
});

describe('CSRF defences on mutations', () => {
  it('refuses a mutation without the X-CSRF-Token header, with a wrong one, or with a missing or foreign Origin', async () => {
    const keys = await createKeys(server.dataDir, 'shop');
    const charge = await createCharge(client(server, keys.secretKey), TEST_PANS.visa);
    const dashboard = dashboardClient(server);
    await dashboard.login(ADMIN.email, ADMIN.password);
    const capture = `/charges/${charge.id}/capture?mode=test`;

    const noToken = await dashboard.post(capture, undefined, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error.code).toBe('CSRF_REJECTED');
    expect((await dashboard.post(capture, undefined, { csrf: false, headers: { 'x-csrf-token': 'forged' } })).body.error.code).toBe('CSRF_REJECTED');
    expect((await dashboard.post(capture, undefined, { headers: { origin: 'https://evil.example' } })).body.error.code).toBe('CSRF_REJECTED');
    const noOrigin = dashboardClient(server, { origin: null });
    noOrigin.setCookie(dashboard.cookie);
    expect((await noOrigin.request('POST', capture, undefined, { headers: { 'x-csrf-token': (await dashboard.get('/session')).body.csrfToken } })).status).toBe(
      403,
    );

    // Nothing moved; then the proper request captures.
    expect((await dashboard.get(`/charges/${charge.id}?mode=test`)).body.status).toBe('PENDING');
    expect((await dashboard.post(capture)).body.status).toBe('CHARGE_SUCCESS');
  });

  it('refuses a sign-in from a foreign origin', async () => {
    const foreign = dashboardClient(server, { origin: 'https://evil.example' });
    const answer = await foreign.request('POST', '/login', ADMIN, { headers: from() });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('CSRF_REJECTED');
  });
});

describe('keys and cookies stay in their own APIs', () => {
  it('refuses an API key on /dashboard/api, even beside a live session', async () => {
    const keys = await createKeys(server.dataDir, 'shop');
    const withKey = await server.fetch(`${server.url}/dashboard/api/charges?mode=test`, { headers: { 'x-api-key': keys.secretKey } });
    expect(withKey.status).toBe(401);
    expect(((await withKey.json()) as any).error.code).toBe('SESSION_EXPIRED');

    const dashboard = dashboardClient(server);
    await dashboard.login(ADMIN.email, ADMIN.password);
    expect((await dashboard.get('/charges?mode=test', { headers: { 'x-api-key': keys.secretKey } })).status).toBe(401);
  });

  it('the session cookie means nothing on /v2', async () => {
    const dashboard = dashboardClient(server);
    await dashboard.login(ADMIN.email, ADMIN.password);
    const v2 = await server.fetch(`${server.url}/v2/charges`, { headers: { cookie: dashboard.cookie ?? '' } });
    expect(v2.status).toBe(401);
    expect(((await v2.json()) as any).error.code).toBe('INVALID_API_KEY');
  });
});

// Each on a server of its own, side by side: they spend their time waiting for the windows to pass.
// Both windows are the shortest the settings allow.
describe.concurrent('session expiry (windows shortened through the environment)', () => {
  it('ends a session idle for longer than PAYFRAME_DASHBOARD_SESSION_IDLE_MS, while activity keeps it alive', async ({ expect }) => {
    const idleMs = 1_000;
    const short = await startInProcess({ env: { PAYFRAME_DASHBOARD_SESSION_IDLE_MS: String(idleMs) } });
    try {
      await createUser(short.dataDir, 'shop', ADMIN.email, 'admin', ADMIN.password);
      const dashboard = dashboardClient(short);
      await dashboard.login(ADMIN.email, ADMIN.password);
      // Requests closer together than the idle window keep it alive past it.
      const until = Date.now() + idleMs * 2;
      while (Date.now() < until) {
        expect((await dashboard.get('/session')).status).toBe(200);
        await waitMs(idleMs / 5);
      }
      await waitMs(idleMs + 300);
      expect((await dashboard.get('/session')).body.error.code).toBe('SESSION_EXPIRED');
    } finally {
      await short.stop();
    }
  });

  it('ends a session PAYFRAME_DASHBOARD_SESSION_MAX_MS after sign-in however busy it is', async ({ expect }) => {
    const maxMs = 1_000;
    const short = await startInProcess({ env: { PAYFRAME_DASHBOARD_SESSION_MAX_MS: String(maxMs) } });
    try {
      await createUser(short.dataDir, 'shop', ADMIN.email, 'admin', ADMIN.password);
      const dashboard = dashboardClient(short);
      const signedIn = Date.now();
      await dashboard.login(ADMIN.email, ADMIN.password);
      let status = 200;
      while (status === 200 && Date.now() - signedIn < maxMs * 5) {
        await waitMs(200);
        status = (await dashboard.get('/session')).status;
      }
      expect(status).toBe(401);
      expect(Date.now() - signedIn).toBeGreaterThanOrEqual(maxMs);
    } finally {
      await short.stop();
    }
  });
});

/** Time passing is what these tests are about: the server's clock is real. */
function waitMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
