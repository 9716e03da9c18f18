import type { RateLimitOptions } from '@fastify/rate-limit';
import { ERROR_CODES, PayframeError } from '@payframe/contract';
import type { FastifyRequest } from 'fastify';
import type { RequestCount, RequestCounter } from '../services/rate-limits.ts';
import { authOf } from './request-context.ts';

export type RateLimits = { publishablePerMinute: number; secretPerMinute: number };

const WINDOW_MS = 60_000;

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

/** A @fastify/rate-limit store on the shared request counts (services/rate-limits.ts). */
export function sharedRateLimitStore(counter: RequestCounter) {
  return class SharedRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: RequestCount) => void, timeWindow: number): void {
      callback(null, counter.count(key, timeWindow));
    }

    child(): SharedRateLimitStore {
      return this;
    }
  };
}
