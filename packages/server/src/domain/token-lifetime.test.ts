import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_MS, tokenEnded } from './token-lifetime.ts';

const CREATED = Date.UTC(2025, 2, 1, 12);

describe('tokenEnded', () => {
  it.each([
    ['fresh and sealed', { createdAt: CREATED, used: false, sealed: true }, CREATED + 1000, null],
    ['at exactly 15 minutes', { createdAt: CREATED, used: false, sealed: true }, CREATED + TOKEN_LIFETIME_MS, null],
    ['past 15 minutes', { createdAt: CREATED, used: false, sealed: true }, CREATED + TOKEN_LIFETIME_MS + 1, 'TOKEN_EXPIRED'],
    ['fresh but erased (expired by the test helper)', { createdAt: CREATED, used: false, sealed: false }, CREATED + 1000, 'TOKEN_EXPIRED'],
    ['used, fresh', { createdAt: CREATED, used: true, sealed: false }, CREATED + 1000, 'TOKEN_ALREADY_USED'],
    ['used, old', { createdAt: CREATED, used: true, sealed: false }, CREATED + 2 * TOKEN_LIFETIME_MS, 'TOKEN_ALREADY_USED'],
  ] as const)('%s', (_name, token, now, expected) => {
    expect(tokenEnded(token, now)).toBe(expected);
  });
});
