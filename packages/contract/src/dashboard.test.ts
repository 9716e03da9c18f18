import { describe, expect, it } from 'vitest';
import {
  ApiKeyRowSchema,
  CreatedApiKeysSchema,
  DashboardChargesQuerySchema,
  DashboardEventsQuerySchema,
  DashboardLoginBodySchema,
  DashboardSessionSchema,
} from './dashboard.ts';

const keyRow = { id: 'a1', kind: 'secret', mode: 'test', hint: 'sk_test_…AbCd', created: 1795342555, last_used: null, revoked: null };

describe('dashboard API shapes', () => {
  it('takes the charge list filters with a mode, 25 at a time when asked', () => {
    const query = DashboardChargesQuerySchema.parse({ mode: 'live', limit: '25', email: 'Ada@Example.com', last4: '4242' });
    expect(query).toEqual({ mode: 'live', limit: 25, email: 'ada@example.com', last4: '4242' });
  });

  it('needs a mode and one cursor at a time', () => {
    expect(DashboardChargesQuerySchema.safeParse({}).error?.issues[0]?.path).toEqual(['mode']);
    const both = DashboardEventsQuerySchema.safeParse({ mode: 'test', starting_after: 'a', ending_before: 'b' });
    expect(both.error?.issues.map((issue) => issue.path)).toEqual([['ending_before']]);
  });

  it('reads a session with its role and CSRF token', () => {
    const session = { user: { email: 'demo@payframe.test', role: 'viewer' }, account: { id: 'acct_1', name: 'demo' }, csrfToken: 't' };
    expect(DashboardSessionSchema.parse(session)).toEqual(session);
    expect(DashboardSessionSchema.safeParse({ ...session, user: { ...session.user, role: 'owner' } }).success).toBe(false);
  });

  it('refuses a login without a password or with a malformed e-mail', () => {
    expect(DashboardLoginBodySchema.safeParse({ email: 'demo@payframe.test', password: '' }).success).toBe(false);
    expect(DashboardLoginBodySchema.safeParse({ email: 'demo', password: 'long enough pass' }).success).toBe(false);
  });

  it('lists keys by hint and answers a created pair with both keys once', () => {
    expect(ApiKeyRowSchema.parse({ ...keyRow, last_used: 1795342600 }).last_used).toBe(1795342600);
    const created = { secretKey: 'sk_test_x', publishableKey: 'pk_test_y', keys: [keyRow] };
    expect(CreatedApiKeysSchema.parse(created)).toEqual(created);
    expect(CreatedApiKeysSchema.safeParse({ ...created, secretKey: 'pk_test_x' }).success).toBe(false);
  });
});
