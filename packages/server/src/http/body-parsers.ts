import formbody from '@fastify/formbody';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import qs from 'qs';
import { numbersAsWritten } from './json-numbers.ts';
import { parseSimpleForm } from './simple-form.ts';

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
  /** Elements of one array (`a[]=…`, `a[3]=…`); indices past it are a 400. */
  arrayLimit: 20,
  throwOnLimitExceeded: true,
  /** Names that would reach Object.prototype (`__proto__[x]`, `constructor[prototype][x]`, `toString`) are dropped. */
  allowPrototypes: false,
  plainObjects: false,
  /** Only brackets nest: `card.number` is a name of its own. */
  allowDots: false,
  /** A repeated name becomes an array, which every schema then refuses where it wants a string. */
  duplicates: 'combine',
} as const satisfies qs.IParseOptions;

/** A JSON body nests objects and arrays as deep as a bracketed name may: `{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`. */
export const JSON_MAX_DEPTH = QS_OPTIONS.depth + 1;

/** How deeply objects and arrays nest in a parsed JSON value, counted without recursion (the value may be hostile). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Query strings nest the same way (`created[gte]=…`). Past a limit they are cut short rather than
 * refused: the parser runs before routing, and every list ignores parameters it does not know.
 */
export function parseQueryString(input: string): Record<string, unknown> {
  return qs.parse(input, { ...QS_OPTIONS, strictDepth: false, throwOnLimitExceeded: false });
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
 * digits as one: `metadata[0]=x` would arrive as the list `["x"]`, its key lost. Such a body's
 * metadata is parsed again with lists off, so `0` is a key as it is in JSON. `metadata[]=x` stays
 * the list it says it is (and is refused as one).
 */
function metadataKeysAsWritten(input: string, parsed: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(parsed.metadata) || !DIGITS_METADATA_KEY.test(input)) return parsed;
  const parts = input.split('&').filter((part) => METADATA_NAME.test(part));
  if (parts.some((part) => METADATA_LIST.test(part))) return parsed;
  const { metadata } = qs.parse(parts.join('&'), { ...BODY_QS_OPTIONS, parseArrays: false });
  return { ...parsed, metadata };
}

/** A body past a qs limit (qs throws a RangeError) is the client's malformed body, not a server fault. */
export function parseBracketed(input: string): Record<string, unknown> {
  try {
    return parseSimpleForm(input) ?? metadataKeysAsWritten(input, qs.parse(input, BODY_QS_OPTIONS));
  } catch (error) {
    if (error instanceof NotUtf8) throw new PayframeError('PARAMETER_INVALID', 'The body is not valid UTF-8 once its percent-escapes are decoded.');
    throw new PayframeError(
      'PARAMETER_INVALID',
      `The parameters exceed the parser's limits: at most ${QS_OPTIONS.parameterLimit} parameters, nested at most ${QS_OPTIONS.depth} levels, arrays of at most ${QS_OPTIONS.arrayLimit} elements.`,
    );
  }
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
    if (typeof value !== 'string') throw new PayframeError('PARAMETER_INVALID', 'File uploads are not accepted: send form fields only.');
    fields.append(name, value);
  }
  return parseBracketed(fields.toString());
}

/**
 * One validation path for three encodings: urlencoded and multipart fields are nested by qs,
 * JSON arrives nested already. Anything else is a 415 from Fastify.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);
  await app.register(formbody, { parser: parseBracketed, bodyLimit: BODY_LIMIT });
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
    parseMultipart(request.headers['content-type'] ?? '', body),
  );
  app.addHook('preValidation', noBodyIsNoParameters);
}

/** JSON bodies as /v2 and the dashboard API read them: an empty one is no parameters, nesting is bounded, integers are taken as written. */
export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    // A POST with no parameters may still announce JSON: treat the empty body as no parameters.
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, {});
    const checked = (parsed: unknown) =>
      // Deeper JSON is refused like a deeper bracketed name, before anything walks it.
      nestingDepth(parsed) > JSON_MAX_DEPTH
        ? done(new PayframeError('PARAMETER_INVALID', `The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`))
        : done(null, parsed);
    return parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error);
      const written = numbersAsWritten(body as string);
      if (written === body) return checked(parsed);
      // Rare (a fraction or exponent was sent): parsed again with those numbers as their text.
      return parseJson(request, written, (again, reparsed) => (again ? done(again) : checked(reparsed)));
    });
  });
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
