import { ERROR_CODES, PayframeError } from '@payframe/contract';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../services/context.ts';
import { authOf } from './request-context.ts';

export type RateLimits = { publishablePerMinute: number; secretPerMinute: number };

const WINDOW_MS = 60_000;
/** Windows older than this are deleted now and then, so the table stays the size of the live traffic. */
const STALE_AFTER_MS = 60 * 60_000;
const CLEANUP_EVERY = 1_000;

/** Which requests count, and against what: decided per request from the key that made it. */
export function rateLimitConfig(limits: RateLimits): RateLimitOptions {
  return {
    timeWindow: WINDOW_MS,
    max: (request: FastifyRequest) => (authOf(request).kind === 'publishable' ? limits.publishablePerMinute : limits.secretPerMinute),
    keyGenerator: (request: FastifyRequest) => {
      const auth = authOf(request);
      // Card testing comes from one address trying many cards: count per address per publishable key.
      return auth.kind === 'publishable' ? `pk:${auth.keyId}:${request.ip}` : `sk:${auth.keyId}`;
    },
    allowList: (request: FastifyRequest) => authOf(request).kind === 'secret' && limits.secretPerMinute === 0,
    errorResponseBuilder: (_request, context) =>
      new PayframeError('RATE_LIMITED', ERROR_CODES.RATE_LIMITED.message, {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      }),
  };
}

/** A @fastify/rate-limit store on the database: every instance behind a load balancer shares the counts. */
export function databaseRateLimitStore(db: Db) {
  let calls = 0;
  return class DatabaseRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = Date.now();
      const expired = sql<boolean>`rate_limits.window_start + ${timeWindow} <= ${now}`;
      // One statement: concurrent requests on any instance each see their own count.
      db.insertInto('rate_limits')
        .values({ key, count: 1, window_start: now })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
            window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
          }),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow()
        .then(async ({ count, window_start }) => {
          if (++calls % CLEANUP_EVERY === 0) {
            await db.deleteFrom('rate_limits').where('window_start', '<', now - STALE_AFTER_MS).execute();
          }
          callback(null, { current: count, ttl: Number(window_start) + timeWindow - now });
        }, callback);
    }

    child(): DatabaseRateLimitStore {
      return this;
    }
  };
}
