import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorBody, PayframeError } from '@payframe/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactCardNumbers } from '../security/redact-card-data.ts';
import { type SchemaNode, shapeOf } from './schema-wrappers.ts';
import { isValidationFailure, namesOf, type ValidationIssue } from './validator.ts';

/** Fastify's own failures that a client can cause, and what they mean in the contract. */
const FASTIFY_ERRORS: Record<string, (error: FastifyError) => PayframeError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new PayframeError('BODY_TOO_LARGE'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new PayframeError('UNSUPPORTED_MEDIA_TYPE'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new PayframeError('PARAMETER_INVALID', 'The Content-Length header does not match the body.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new PayframeError('PARAMETER_INVALID', 'The request body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new PayframeError('PARAMETER_INVALID', 'The request body is not valid JSON.'),
};

/** Turns anything thrown into the one error shape of docs/api.md "Errors"; unknown faults become a bare 500. */
export function toPayframeError(error: unknown, request: FastifyRequest): PayframeError {
  if (error instanceof PayframeError) return error;
  if (isValidationFailure(error)) return validationError(error, request);
  const fastifyError = error as FastifyError;
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return known(fastifyError);
  if (fastifyError.statusCode === 429) return new PayframeError('RATE_LIMITED');
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return new PayframeError('PARAMETER_INVALID', 'The request body could not be parsed (malformed, or a forbidden key such as __proto__).');
  }
  return new PayframeError('INTERNAL_ERROR');
}

function validationError(error: { validation: ValidationIssue[]; validationContext?: string }, request: FastifyRequest): PayframeError {
  // An unknown name outranks any other issue: `amout` is more likely a misspelled `amount` than a missing one.
  const unknown = error.validation.find((issue) => issue.keyword === 'unrecognized_keys');
  if (unknown) return unknownParameter(unknown);
  const issue = error.validation[0];
  const segments = pathOf(issue);
  const sources: Record<string, unknown> = { params: request.params, querystring: request.query };
  const source = error.validationContext && error.validationContext in sources ? sources[error.validationContext] : request.body;
  const parameter = segments.join('.') || 'body';
  // The whole body of the wrong kind (a JSON array, string or number): zod would say so in its own words.
  if (segments.length === 0) return new PayframeError('PARAMETER_INVALID', 'The request body must be an object of named parameters.', { parameter });
  if (valueAt(source, segments) === undefined) {
    // A whole group missing (`card`) is named by its first required field (`card.number`): the
    // parameters are the bracketed names, and that is the first one to send.
    const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[error.validationContext ?? 'body'];
    const missing = [...segments, ...firstRequiredWithin(fieldAt(schema, segments))].join('.');
    return new PayframeError('PARAMETER_MISSING', `Missing required parameter: ${missing}`, { parameter: missing });
  }
  return new PayframeError('PARAMETER_INVALID', `Invalid parameter ${parameter}: ${issue?.message ?? 'invalid value'}`, { parameter });
}

function fieldAt(schema: unknown, path: string[]): SchemaNode | undefined {
  let node = schema as SchemaNode | undefined;
  for (const segment of path) node = shapeOf(node)?.[segment];
  return node;
}

/** The path to the first field an object schema requires, down to a field that is no object; empty for anything else. */
function firstRequiredWithin(schema: SchemaNode | undefined): string[] {
  const shape = shapeOf(schema);
  if (!shape) return [];
  for (const [name, field] of Object.entries(shape)) {
    if (field.safeParse?.(undefined).success === false) return [name, ...firstRequiredWithin(field)];
  }
  return [];
}

function pathOf(issue: ValidationIssue | undefined): string[] {
  return namesOf(issue?.instancePath ?? '');
}

/** zod's strict objects report the names they do not define on the object that holds them. */
function unknownParameter(issue: ValidationIssue): PayframeError {
  const keys = (issue.params as { keys?: unknown } | undefined)?.keys;
  const name = Array.isArray(keys) && typeof keys[0] === 'string' ? keys[0] : '';
  const parameter = [...pathOf(issue), name].filter(Boolean).join('.');
  return new PayframeError('PARAMETER_UNKNOWN', `Unknown parameter: ${parameter}. This operation does not take it; nothing was done.`, { parameter });
}

function valueAt(source: unknown, path: string[]): unknown {
  let value = source;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const payframeError = toPayframeError(error, request);
    // The store turns an outage into SERVICE_UNAVAILABLE and keeps the driver's error as the cause.
    if (payframeError.code === 'SERVICE_UNAVAILABLE' && payframeError.cause !== undefined) {
      request.log.warn({ err: payframeError.cause }, 'database unavailable');
    } else if (payframeError.status >= 500 && payframeError.code !== 'SERVICE_UNAVAILABLE') {
      request.log.error({ err: error }, 'request failed');
    }
    const retryAfter = reply.getHeader('retry-after');
    if (payframeError.code === 'RATE_LIMITED' && retryAfter === undefined) reply.header('retry-after', '60');
    return reply.code(payframeError.status).headers(payframeError.headers).send(withoutCardNumbers(payframeError.toBody()));
  });
}

/**
 * An error body fit to send: a parameter's name or path comes from the request (an unknown name, a
 * metadata key), and a card number put there is not repeated back, in `parameter` or in the message.
 */
function withoutCardNumbers(body: ErrorBody): ErrorBody {
  const message = redactCardNumbers(body.message);
  const { parameter } = body.error;
  return { ...body, message, error: { ...body.error, message, ...(parameter === undefined ? {} : { parameter: redactCardNumbers(parameter) }) } };
}

/** Answers made before any route or hook runs still must not be cached or sniffed. */
export const PRE_ROUTING_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/**
 * Requests that Node's HTTP parser refuses before Fastify sees them — headers over its 16 KB limit,
 * malformed HTTP, a request not received within the request timeout — get that shape too
 * (400 PARAMETER_INVALID), then the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large (16 KB at most).'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request was not received in time.'
        : 'The request is not well-formed HTTP.';
  answerOnSocket(socket, new PayframeError('PARAMETER_INVALID', message));
}

/** Writes `error` in the API's shape straight onto a socket no response object owns, then closes it. */
export function answerOnSocket(socket: Duplex, error: PayframeError): void {
  const body = JSON.stringify(withoutCardNumbers(error.toBody()));
  const headers = { ...PRE_ROUTING_HEADERS, ...error.headers };
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
