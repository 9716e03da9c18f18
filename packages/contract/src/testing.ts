import assert from 'node:assert/strict';
import { z } from 'zod';
import { type DeclineReason, ERROR_CODES, type ErrorBody, ErrorBodySchema, type ErrorCode, type ErrorType } from './errors.ts';

/*
 * The one error assertion of every test suite (vitest and Playwright alike): plain node:assert, so
 * it needs no test framework, and both runners show its AssertionError with a diff.
 */

/** An answer whose body was read as JSON (or left as text when it was not JSON). */
export type Answer = { status: number; body: unknown; headers?: { get(name: string): string | null } };

/** What else the error must say; `parameter` or `decline_reason` given as undefined means "absent". */
export type ErrorDetails = { type?: ErrorType; parameter?: string | undefined; decline_reason?: DeclineReason | undefined };

/** The error shape with nothing besides it: exactly type, message and error, and error's known keys. */
const ExactErrorBodySchema = ErrorBodySchema.extend({ error: ErrorBodySchema.shape.error.strict() }).strict();

/** The body is the API's error shape, whole and exact; returns it typed. */
export function expectErrorBody(body: unknown): ErrorBody {
  const parsed = ExactErrorBodySchema.safeParse(body);
  if (!parsed.success) assert.fail(`not the error shape: ${JSON.stringify(body)}\n${z.prettifyError(parsed.error)}`);
  assert.equal(parsed.data.error.message, parsed.data.message, `error.message differs from message: ${JSON.stringify(body)}`);
  assert.match(parsed.data.message, /\S/, 'an empty message');
  return parsed.data;
}

/**
 * The answer is the error `code` with `status`, in the error shape, of the code's type (from the
 * catalogue unless given), served as JSON; with `parameter` and `decline_reason` as given.
 */
export function expectError(answer: Answer, status: number, code: ErrorCode, details: ErrorDetails = {}): ErrorBody {
  const shown = JSON.stringify(answer.body);
  assert.deepEqual({ status: answer.status, code: codeOf(answer.body) }, { status, code }, shown);
  const body = expectErrorBody(answer.body);
  const contentType = answer.headers?.get('content-type');
  if (answer.headers) assert.match(contentType ?? '', /^application\/json/, `content-type ${contentType}`);
  assert.equal(body.type, details.type ?? ERROR_CODES[code].type, shown);
  if ('parameter' in details) assert.equal(body.error.parameter, details.parameter, shown);
  if ('decline_reason' in details) assert.equal(body.error.decline_reason, details.decline_reason, shown);
  return body;
}

function codeOf(body: unknown): unknown {
  const parsed = z.object({ error: z.object({ code: z.unknown() }) }).safeParse(body);
  return parsed.success ? parsed.data.error.code : undefined;
}

/** The answer is a 200; returns its body. */
export function expectOk<T>(answer: { status: number; body: T }): T {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/*
 * The one card and shopper every suite's tokens are made with, and the token and charge parameters
 * built from them. Values are written as a form sends them (strings), which every encoding and the
 * SDK accept; a test about JSON numbers writes its numbers itself.
 */

/** A test card's number (TEST_CARDS in test-cards.ts) with the rest any valid card has, expiring in three years. */
export function testCard(number: string) {
  return { number, cvc: '123', exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 3), name: 'Ada Lovelace' };
}

export const TEST_SHOPPER = { ip: '203.0.113.7', session_id: 'session-1', email: 'ada@example.com' };

type TokenParams = { card: ReturnType<typeof testCard>; shopper: typeof TEST_SHOPPER };
type ChargeParams = { token: string; amount: string; currency: string; description: string; return_url: string };

/** `POST /v2/tokens`'s parameters for the card `number`; `overrides` replace or add top-level ones. */
export function tokenParams<O extends Record<string, unknown> = Record<never, never>>(number: string, overrides: O = {} as O): Omit<TokenParams, keyof O> & O {
  return { card: testCard(number), shopper: { ...TEST_SHOPPER }, ...overrides };
}

/** `POST /v2/charges`'s parameters for `token`: 5.00 EUR; `overrides` replace or add top-level ones. */
export function chargeParams<O extends Record<string, unknown> = Record<never, never>>(token: string, overrides: O = {} as O): Omit<ChargeParams, keyof O> & O {
  return { token, amount: '500', currency: 'eur', description: 'Order #1', return_url: 'https://shop.example/return', ...overrides };
}
