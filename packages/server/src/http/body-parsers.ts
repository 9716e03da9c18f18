import { isUtf8 } from 'node:buffer';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import qs from 'qs';
import { fromForm } from './form-lists.ts';
import { numbersAsWritten } from './json-numbers.ts';
import { decoded, parseSimpleForm } from './simple-form.ts';

export const BODY_LIMIT = 1024 * 1024;

/**
 * Bracketed names (`card[number]`) become nested objects. Every limit is set here, so a hostile
 * body stays cheap and a body past a limit is refused (400) rather than silently cut short.
 */
export const QS_OPTIONS = {
  /** `a[b][c][d][e][f]` is the deepest name; one more level is a 400 (strictDepth), not a flattened key. */
  depth: 5,
  strictDepth: true,
  /** Parameters in one body (multipart fields count the same). */
  parameterLimit: 200,
  /**
   * Elements of one array (`a[]=…`, `a[3]=…`); indices past it are a 400. Above every array a
   * schema takes, so that a long list is refused by its schema, in the words a JSON body gets.
   */
  arrayLimit: 100,
  throwOnLimitExceeded: true,
  /**
   * Names are kept as sent, `toString` and `constructor[prototype]` included, on objects without a
   * prototype (nothing can reach Object.prototype), so that the strict schemas refuse them by name
   * (PARAMETER_UNKNOWN) instead of qs dropping them. `__proto__`, which qs drops whatever its
   * options say, is refused before qs sees it (`unreadableName`).
   */
  allowPrototypes: true,
  plainObjects: true,
  /** Only brackets nest: `card.number` is a name of its own. */
  allowDots: false,
  /** A repeated name becomes an array, which every schema then refuses where it wants a string. */
  duplicates: 'combine',
} as const satisfies qs.IParseOptions;

/** A JSON body nests objects and arrays as deep as a bracketed name may: `{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`. */
export const JSON_MAX_DEPTH = QS_OPTIONS.depth + 1;

/**
 * How deeply objects and arrays nest in a parsed JSON value, and the dotted path of the first
 * `__proto__` key in it: found without recursion (the value may be hostile).
 */
export function inspectJson(value: unknown): { depth: number; protoKey: string | undefined } {
  let depth = 0;
  let protoKey: string | undefined;
  const pending: Array<[unknown, number, string]> = [[value, 1, '']];
  while (pending.length > 0) {
    const [current, level, path] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    depth = Math.max(depth, level);
    const isArray = Array.isArray(current);
    if (!isArray && protoKey === undefined && Object.hasOwn(current, '__proto__')) protoKey = `${path}__proto__`;
    for (const [name, child] of Object.entries(current)) pending.push([child, level + 1, isArray ? path : `${path}${name}.`]);
  }
  return { depth, protoKey };
}

class NotUtf8 extends Error {}

/**
 * qs's own decoder keeps what decodeURIComponent refuses as it was sent: right for a stray `%`
 * (`50%off`), wrong for well-formed escapes of bytes that are no UTF-8 (`%ED%A0%80`, `%C0%AE`,
 * `%FF`), which would be stored as the literal text `%ED%A0%80`. Those are refused.
 */
const strictUtf8: qs.IParseOptions['decoder'] = (text, defaultDecoder, charset) => {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    if (!/%(?![0-9a-f]{2})/i.test(spaced)) throw new NotUtf8();
    return defaultDecoder(text, defaultDecoder, charset);
  }
};
export const BODY_QS_OPTIONS = { ...QS_OPTIONS, decoder: strictUtf8 } as const satisfies qs.IParseOptions;

/** A `metadata[…]` name whose key is digits only, as sent or percent-encoded. */
const DIGITS_METADATA_KEY = /(?:^|&)metadata(?:\[|%5B)\d+(?:\]|%5D)/i;
const METADATA_NAME = /^metadata(?:\[|%5B)/i;
const METADATA_LIST = /^metadata(?:\[|%5B)(?:\]|%5D)/i;

/**
 * Metadata's keys are names (`A-Z a-z 0-9 _ . -`), never list indices, but qs reads a bracket of
 * digits as one: `metadata[0]=x` would arrive as the list `["x"]`, its key lost, and
 * `metadata[123]=x` would pass the array limit. Such a body's metadata is parsed apart with lists
 * off, so `0` and `123` are keys as they are in JSON. `metadata[]=x` stays the list it says it is
 * (and is refused as one), and a plain `metadata=…` beside bracketed keys is left to qs whole.
 */
function parseForm(input: string): Record<string, unknown> {
  if (!DIGITS_METADATA_KEY.test(input)) return qs.parse(input, BODY_QS_OPTIONS);
  const parts = input.split('&');
  const metadataParts = parts.filter((part) => METADATA_NAME.test(part));
  if (metadataParts.some((part) => METADATA_LIST.test(part))) return qs.parse(input, BODY_QS_OPTIONS);
  // Parsed in two, each under qs's count: the whole is held to it here.
  if (parts.filter(Boolean).length > QS_OPTIONS.parameterLimit) throw new RangeError('Parameter limit exceeded');
  const others = qs.parse(parts.filter((part) => !METADATA_NAME.test(part)).join('&'), BODY_QS_OPTIONS);
  if (Object.hasOwn(others, 'metadata')) return qs.parse(input, BODY_QS_OPTIONS);
  others.metadata = qs.parse(metadataParts.join('&'), { ...BODY_QS_OPTIONS, parseArrays: false }).metadata;
  return others;
}

/** A name's brackets as a dotted path, as every other error names a parameter: `card[__proto__]` is `card.__proto__`. */
const dotted = (name: string) => name.replace(/\[([^\]]*)\]/g, '.$1');

/**
 * A name qs would drop without a word: none at all (`=1`), or `__proto__` as any part of it.
 * The names are decoded as qs decodes them (`%5F_proto__` is `__proto__`).
 */
function unreadableName(input: string): PayframeError | undefined {
  for (const part of input.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const sent = equals === -1 ? part : part.slice(0, equals);
    if (sent === '') return new PayframeError('PARAMETER_UNKNOWN', 'A parameter has no name: send it as name=value.', { parameter: '' });
    // Escapes that do not decode are kept as sent, as qs keeps them.
    const name = decoded(sent) ?? sent.replace(/\+/g, ' ');
    if (name.includes('__proto__')) return new PayframeError('PARAMETER_UNKNOWN', `Unknown parameter: ${dotted(name)}.`, { parameter: dotted(name) });
  }
  return undefined;
}

function limitsExceeded(): PayframeError {
  return new PayframeError(
    'PARAMETER_INVALID',
    `The parameters exceed the parser's limits: at most ${QS_OPTIONS.parameterLimit} parameters, nested at most ${QS_OPTIONS.depth} levels, arrays of at most ${QS_OPTIONS.arrayLimit} elements.`,
  );
}

/** Parses a form or a query string by every rule above; a PayframeError says why one cannot be. */
function parseStrictly(input: string): Record<string, unknown> {
  const unreadable = unreadableName(input);
  if (unreadable) throw unreadable;
  try {
    return parseForm(input);
  } catch (error) {
    if (error instanceof NotUtf8) throw new PayframeError('PARAMETER_INVALID', 'The parameters are not valid UTF-8 once their percent-escapes are decoded.');
    throw limitsExceeded();
  }
}

/** Where a query string that could not be read keeps its error, for `refuseUnreadParameters`. */
const QUERY_REFUSED = Symbol('query refused');

/**
 * Query strings nest and are checked the same way (`created[gte]=…`). The parser runs while the
 * router looks the route up, where an error would be no answer of ours: a query that cannot be
 * read carries its error to `refuseUnreadParameters`, which answers it once the route is known.
 */
export function parseQueryString(input: string): Record<string, unknown> {
  try {
    return parseSimpleForm(input) ?? parseStrictly(input);
  } catch (error) {
    return { [QUERY_REFUSED]: error };
  }
}

/**
 * Answers what the API would otherwise not read: a query string that could not be read
 * (parseQueryString), and the body of a GET or HEAD, which Fastify never parses (a list sent its
 * filters there would answer as if none were set). A callback hook: every request runs it.
 */
export function refuseUnreadParameters(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const refused = (request.query as { [QUERY_REFUSED]?: unknown } | undefined)?.[QUERY_REFUSED];
  done(refused === undefined ? bodyOfBodyless(request) : (refused as Error));
}

function bodyOfBodyless(request: FastifyRequest): PayframeError | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const { headers } = request.raw;
  const length = headers['content-length'];
  if ((length === undefined || length === '0') && headers['transfer-encoding'] === undefined) return undefined;
  return new PayframeError('PARAMETER_UNKNOWN', `A ${request.method} takes no body: send its parameters in the query string.`);
}

/** A form body: the common shape parsed quickly (simple-form.ts), any other by qs with every check. */
export function parseBracketed(input: string): Record<string, unknown> {
  return parseSimpleForm(input) ?? parseStrictly(input);
}

/** The body's bytes as text, refused when they are no UTF-8: decoding would turn them into U+FFFD, stored as other than sent. */
function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) throw new PayframeError('PARAMETER_INVALID', 'The request body is not valid UTF-8.');
  return body.toString('utf8');
}

/**
 * Multipart is read whole under the same 1 MB limit as the other encodings (Fastify counts the
 * bytes, chunked or not), parsed by the platform's FormData parser, then nested by the very same
 * qs path as a urlencoded body. Files are refused: the API takes form fields only.
 */
export async function parseMultipart(contentType: string, body: Buffer): Promise<Record<string, unknown>> {
  if (body.length === 0) return {};
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new PayframeError('PARAMETER_INVALID', 'The multipart body is malformed.');
  }
  const fields = new URLSearchParams();
  for (const [name, value] of form) {
    if (typeof value !== 'string') {
      throw new PayframeError('PARAMETER_INVALID', 'File uploads are not accepted: send form fields only.', { parameter: dotted(name) });
    }
    fields.append(name, value);
  }
  // Fields are read as UTF-8, with U+FFFD for bytes that are not: such bytes are refused instead.
  utf8Text(body);
  return parseBracketed(fields.toString());
}

/**
 * One validation path for three encodings: urlencoded and multipart fields are nested by qs,
 * JSON arrives nested already. Anything else is a 415 from Fastify.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, fromForm(parseBracketed(utf8Text(body as Buffer))));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // A declared length over the limit is answered before reading, and the connection is kept (Node
  // discards the rest): a client still writing its large body reads the 413 instead of a reset.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (Number(request.headers['content-length']) > BODY_LIMIT) return done(bodyTooLarge());
    // Bodies are read as sent: a compressed one would be parsed as its compressed bytes.
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      return done(new PayframeError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Encoding: send the body uncompressed.'));
    }
    done(null, payload);
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, async (request: FastifyRequest, body: Buffer) =>
    fromForm(await parseMultipart(request.headers['content-type'] ?? '', body)),
  );
  app.addHook('preValidation', refuseUnreadParameters);
  app.addHook('preValidation', noBodyIsNoParameters);
}

/**
 * JSON bodies as /v2 and the dashboard API read them: an empty one is no parameters, bytes that are
 * no UTF-8 and nesting past a bound are refused, integers are taken as written, and a `__proto__`
 * key is refused by name like any name no schema defines (JSON.parse keeps it as a plain key).
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(utf8Text(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

function parseJsonBody(text: string): unknown {
  // A POST with no parameters may still announce JSON: the empty body is no parameters.
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PayframeError('PARAMETER_INVALID', 'The request body is not valid JSON.');
  }
  // Rare (a fraction or exponent was sent): parsed again with those numbers as their text
  // (json-numbers.ts), which is only sound on text that parsed as JSON already.
  const written = numbersAsWritten(text);
  if (written !== text) parsed = JSON.parse(written);
  const { depth, protoKey } = inspectJson(parsed);
  if (depth > JSON_MAX_DEPTH) throw new PayframeError('PARAMETER_INVALID', `The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`);
  if (protoKey !== undefined) throw new PayframeError('PARAMETER_UNKNOWN', `Unknown parameter: ${protoKey}.`, { parameter: protoKey });
  return parsed;
}

/**
 * No body at all is no parameters: each required one is then reported by name (400
 * PARAMETER_MISSING), and a body of optional ones may be left out whole. A callback hook, as every
 * request runs it: an async one costs a promise each time.
 */
export function noBodyIsNoParameters(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
}

function bodyTooLarge(): PayframeError {
  return new PayframeError('BODY_TOO_LARGE');
}
