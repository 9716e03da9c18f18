import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { Transform } from 'node:stream';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';

export const BODY_LIMIT = 1024 * 1024;

/** Bracketed names (`card[number]`) become nested objects; limits keep hostile bodies cheap. */
const QS_OPTIONS: qs.IParseOptions = { depth: 5, parameterLimit: 200, arrayLimit: 20, allowPrototypes: false, strictDepth: true };

/** qs throws past the depth limit: that is the client's malformed body, not a server fault. */
export function parseBracketed(input: string | Record<string, unknown>): Record<string, unknown> {
  try {
    return qs.parse(input as string, QS_OPTIONS);
  } catch {
    throw new PayframeError('PARAMETER_INVALID', `Parameters are nested deeper than ${QS_OPTIONS.depth} levels.`);
  }
}

/**
 * One validation path for three encodings: urlencoded and multipart fields are nested by qs,
 * JSON arrives nested already. Anything else is a 415 from Fastify.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A POST with no parameters may still announce JSON: treat the empty body as no parameters.
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, {});
    return parseJson(request, body as string, done);
  });

  await app.register(formbody, { parser: parseBracketed, bodyLimit: BODY_LIMIT });
  // @fastify/multipart ignores bodyLimit (it truncates fields instead): count the bytes ourselves.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return payload;
    if (Number(request.headers['content-length']) > BODY_LIMIT) throw bodyTooLarge();
    let received = 0;
    return payload.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          callback(received > BODY_LIMIT ? bodyTooLarge() : null, chunk);
        },
      }),
    );
  });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 200, fieldSize: BODY_LIMIT, files: 0, parts: 200, fieldNameSize: 200 },
  });
  app.addHook('preValidation', async (request) => {
    // No body at all is no parameters: each required one is then reported by name.
    if (request.body === undefined || request.body === null) request.body = {};
    else if (request.isMultipart() && request.body && typeof request.body === 'object') {
      request.body = parseBracketed(request.body as Record<string, unknown>);
    }
  });
}

function bodyTooLarge(): PayframeError {
  return new PayframeError('BODY_TOO_LARGE', 'The request body is larger than 1 MB.');
}
