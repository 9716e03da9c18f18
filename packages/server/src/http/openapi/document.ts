import { API_ERROR_CODES } from '@payframe/contract';
import { type Bounds, bodyInteger, queryInteger } from './integers.ts';
import { OPERATIONS, TAGS } from './operations.ts';
import { webhooksSection } from './webhooks.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON built from zod output and walked by path; typing every node would restate the OpenAPI schema.
type Json = Record<string, any>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes the POST safe to retry: the first answer is stored and replayed for 24 hours (docs/api.md "Idempotency").',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description: 'Resume after this event id; an unknown one is 400 RESOURCE_MISSING. Empty or absent: events committed after the stream opened.',
  schema: { type: 'string', maxLength: 255 },
};
const REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this answer is the stored one of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};
/**
 * A POST's refusals by the operation itself are stored under its Idempotency-Key and replayed like
 * its successes (services/idempotency.ts); what is answered before the operation runs (the key, the
 * limits, the body's encoding, a key in use) is not.
 */
const REPLAYABLE_ERRORS = new Set(['400', '402', '403', '404']);
const REQUEST_ID = {
  'Request-Id': {
    description: "This request's id (`req_…`), which the server's log lines for it carry too.",
    schema: { type: 'string', pattern: '^req_[0-9a-f]{24}$' },
  },
};
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^\\d+$' } } };

const ERROR_STATUSES: Record<string, string> = {
  '400': 'A parameter is missing, invalid or unknown (PARAMETER_MISSING, PARAMETER_INVALID, PARAMETER_UNKNOWN), an unknown token, or a reused Idempotency-Key.',
  '401': 'No valid API key (INVALID_API_KEY).',
  '402': 'The payment, or the charge in its current state, refused the operation (card_error or invalid_request_error).',
  '403': 'The key may not do this: a publishable key, a live key over HTTP, or live mode not enabled.',
  '404': 'No such object in this account and mode (RESOURCE_MISSING).',
  '409': 'A request with the same Idempotency-Key is still in flight (IDEMPOTENCY_CONFLICT).',
  '413': 'The body is larger than 1 MB (BODY_TOO_LARGE).',
  '415': 'The content type or encoding is not one the API reads (UNSUPPORTED_MEDIA_TYPE).',
  '429': 'Too many requests (RATE_LIMITED); see Retry-After.',
  '5XX': 'A server fault (INTERNAL_ERROR) or an unreachable database (SERVICE_UNAVAILABLE); retry with the same Idempotency-Key.',
};

/**
 * The swagger output of the routes' zod schemas, finished into what the server does (docs/api.md, "The OpenAPI document"):
 * every body encoding, optional bodies, deepObject queries, integer bounds, headers, the error
 * answers of each operation, operationIds, tags, servers, license and the webhooks.
 */
export function finishDocument(raw: Json, serverUrl: string | undefined): Json {
  const document = structuredClone(raw);
  document.info = {
    title: 'Payframe API',
    version: '2',
    description: 'Card tokens, charges, refunds, events and webhooks. The reference in prose is docs/api.md.',
    license: { name: 'MIT', identifier: 'MIT' },
  };
  document.servers = [{ url: serverUrl ?? '/', description: serverUrl ? 'This server' : 'The server that serves this document' }];
  document.tags = TAGS;
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) finishOperation(`${method.toUpperCase()} ${path}`, method, operation);
  }
  document.webhooks = webhooksSection();
  document.components.schemas = usedComponents(document, rewriteMarks(document.components.schemas, 'body'));
  const error = document.components.schemas.Error;
  error.properties.error.properties.code.enum = [...API_ERROR_CODES];
  dropIpv6Patterns(document);
  return document;
}

/**
 * zod takes an IPv6 address that a URL's host may be (IPv4-mapped `::ffff:203.0.113.7`, the form
 * Node gives an IPv4 client of a dual-stack socket, included), but writes beside `format: ipv6` a
 * pattern that refuses those forms. The format alone says what the server takes.
 */
function dropIpv6Patterns(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropIpv6Patterns(item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Json;
  if (node.format === 'ipv6') delete node.pattern;
  for (const child of Object.values(node)) dropIpv6Patterns(child);
}

function finishOperation(key: string, method: string, operation: Json): void {
  const facts = OPERATIONS[key];
  if (!facts) throw new Error(`OpenAPI: ${key} has no operationId (add it to http/openapi/operations.ts)`);
  operation.operationId = facts.operationId;
  operation.tags = [facts.tag];
  const post = method === 'post';
  const parameters: Json[] = (operation.parameters ?? []).map((parameter: Json) => finishParameter(parameter));
  if (post) parameters.push(IDEMPOTENCY_KEY);
  if (facts.operationId === 'streamEvents') parameters.push(LAST_EVENT_ID);
  if (parameters.length > 0) operation.parameters = parameters;
  if (operation.requestBody) operation.requestBody = finishBody(operation.requestBody);

  const success = operation.responses['200'];
  success.description = 'Success';
  success.headers = { ...REQUEST_ID, ...(post ? REPLAYED : {}) };
  const statuses = ['400', '401', ...(facts.payment ? ['402'] : []), '403'];
  if (parameters.some((parameter) => parameter.in === 'path')) statuses.push('404');
  if (post) statuses.push('409', '413', '415');
  // The event stream is not rate limited per request, but an account's streams are counted: the 11th is a 429 too.
  statuses.push('429');
  statuses.push('5XX');
  const responses: Json = { '200': success };
  for (const status of statuses) {
    responses[status] = {
      description: ERROR_STATUSES[status],
      headers: { ...REQUEST_ID, ...(status === '429' ? RETRY_AFTER : {}), ...(post && REPLAYABLE_ERRORS.has(status) ? REPLAYED : {}) },
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  operation.responses = responses;
}

function finishParameter(parameter: Json): Json {
  const schema = rewriteMarks(parameter.schema, parameter.in === 'query' ? 'query' : 'body');
  // Bracketed names (`created[gte]`, `metadata[order]`): OpenAPI's deepObject.
  const object = schema?.type === 'object';
  return { ...parameter, schema, ...(object ? { style: 'deepObject', explode: true } : {}) };
}

/** One schema under each encoding the server reads; optional when nothing in it is required. */
function finishBody(body: Json): Json {
  const schema = rewriteMarks(body.content['application/json'].schema, 'body');
  const encoding: Json = {};
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    // Objects are bracketed (`card[number]`); lists repeat their name (`events=a&events=b`, or `events[]=`).
    if (isObject(property)) encoding[name] = { style: 'deepObject', explode: true };
    else if (property.type === 'array') encoding[name] = { style: 'form', explode: true };
  }
  const withEncoding = Object.keys(encoding).length > 0 ? { encoding } : {};
  return {
    required: (schema.required ?? []).length > 0,
    content: {
      'application/x-www-form-urlencoded': { schema, ...withEncoding },
      'multipart/form-data': { schema, ...withEncoding },
      'application/json': { schema },
    },
  };
}

function isObject(schema: Json): boolean {
  return schema.type === 'object' || (Array.isArray(schema.anyOf) && schema.anyOf.some((branch: Json) => branch.type === 'object'));
}

/**
 * What JSON Schema can say of an `x-http-url` (the contract's return_url): the scheme, then a plain
 * host, so no credentials, and a port. Not `format: uri` (RFC 3986): it refuses what the server's
 * URL check takes and escapes, such as a space or an `ä` in the path.
 */
const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]*)?(?:[/?#\\\\].*)?$';

/** Replaces each mark of the contract (`x-integer`, `x-http-url`) by what OpenAPI can say of it, there. */
function rewriteMarks<T>(value: T, place: 'query' | 'body'): T {
  if (Array.isArray(value)) return value.map((item) => rewriteMarks(item, place)) as T;
  if (value === null || typeof value !== 'object') return value;
  const node = value as Json;
  const kept = { ...('default' in node ? { default: node.default } : {}), ...(node.description ? { description: node.description } : {}) };
  if (node['x-integer']) {
    const bounds = node['x-integer'] as Bounds;
    return { ...(place === 'query' ? queryInteger(bounds) : bodyInteger(bounds)), ...kept } as T;
  }
  if (node['x-http-url']) return { type: 'string', maxLength: node.maxLength, pattern: HTTP_URL_PATTERN, ...kept } as T;
  return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, rewriteMarks(child, place)])) as T;
}

/** The components some part of the document refers to (the type provider emits an input twin of every resource). */
function usedComponents(document: Json, schemas: Json): Json {
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const match of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      const name = match[1]!;
      if (used.has(name) || !schemas[name]) continue;
      used.add(name);
      visit(JSON.stringify(schemas[name]));
    }
  };
  visit(JSON.stringify({ paths: document.paths, webhooks: document.webhooks }));
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}
