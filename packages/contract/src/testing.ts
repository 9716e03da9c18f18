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
