import { createRequire } from 'node:module';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateInput, validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import { bracketed, type Encoding, resolveTarget, type Target } from '../client.ts';

/** One problem Prism (Stoplight's OpenAPI validator) found in a request or an answer. */
export type Violation = { request: string; side: 'request' | 'answer'; message: string; path?: string };
type Params = Record<string, unknown>;
type Answer = { status: number; body: any; headers: Headers };

const BOUNDARY = 'payframe-openapi-boundary';

// The router is a CommonJS default export, which TypeScript's ESM view does not see as callable.
const route: typeof import('@stoplight/prism-http/dist/router/index.js')['default'] = createRequire(import.meta.url)(
  '@stoplight/prism-http/dist/router/index.js',
).default;

/** The bytes a client sends for `params` in `encoding`, so that Prism reads exactly what the server reads. */
function encode(params: Params, encoding: Encoding): { body: string; contentType: string } {
  if (encoding === 'json') return { body: JSON.stringify(params), contentType: 'application/json' };
  const fields = bracketed(params);
  if (encoding === 'form') return { body: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' };
  const parts = fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: `${parts.join('')}--${BOUNDARY}--\r\n`, contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

/**
 * A client whose every request and answer is checked against the served OpenAPI document by
 * @stoplight/prism-http, the library behind Prism's validating proxy: the request as sent (its
 * query, headers and body bytes in their encoding) and the answer as received (status, headers,
 * JSON). Each violation is kept, with the request it came from.
 */
export async function validatedClient(target: Target, document: object) {
  const { url: baseUrl, fetch } = resolveTarget(target);
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  const violations: Violation[] = [];
  let checked = 0;

  async function request(
    method: string,
    pathAndQuery: string,
    options: { apiKey?: string; params?: Params; encoding?: Encoding; headers?: Record<string, string>; breaksDocument?: boolean } = {},
  ): Promise<Answer> {
    const sent = options.params === undefined ? undefined : encode(options.params, options.encoding ?? 'form');
    const headers: Record<string, string> = {
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      ...(sent ? { 'content-type': sent.contentType, 'content-length': String(Buffer.byteLength(sent.body)) } : {}),
      ...options.headers,
    };
    const response = await fetch(`${baseUrl}${pathAndQuery}`, { method, headers, body: sent?.body ?? null });
    const text = await response.text();
    const answer: Answer = { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };

    const label = `${method} ${pathAndQuery}${options.encoding ? ` (${options.encoding})` : ''}`;
    const url = new URL(pathAndQuery, baseUrl);
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) query[name] = name in query ? [query[name]!, value].flat() : value;
    const input = {
      method: method.toLowerCase() as 'get',
      url: { path: url.pathname, query, baseUrl },
      headers,
      body: sent === undefined ? undefined : options.encoding === 'json' ? options.params : sent.body,
    };
    const matched = route({ resources: operations, input });
    if (matched._tag === 'Left') {
      violations.push({ request: label, side: 'request', message: `no operation: ${matched.left.message}` });
      return answer;
    }
    const resource = matched.right;
    const keep = (side: Violation['side'], diagnostics: ReadonlyArray<{ message: string; path?: Array<string | number> }>) => {
      for (const diagnostic of diagnostics) violations.push({ request: label, side, message: diagnostic.message, path: diagnostic.path?.join('.') });
    };
    const inputResult = validateInput({ resource, element: input });
    // A request meant to break the document must be found to (else the document is looser than the server).
    if (options.breaksDocument) {
      if (inputResult._tag === 'Right') violations.push({ request: label, side: 'request', message: 'the server refused it, but the document allows it' });
    } else if (inputResult._tag === 'Left') keep('request', inputResult.left);
    const outputResult = validateOutput({
      resource,
      element: { statusCode: answer.status, headers: Object.fromEntries(response.headers), body: answer.body },
    });
    if (outputResult._tag === 'Left') keep('answer', outputResult.left);
    checked++;
    return answer;
  }

  return { request, violations, checked: () => checked };
}
