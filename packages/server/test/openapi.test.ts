import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './client.ts';
import { startServer, type TestServer } from './harness.ts';

type Operation = {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

let server: TestServer;
let document: Document;

beforeAll(async () => {
  server = await startServer();
  const response = await client(server.url).get<Document>('/v2/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(() => server?.stop());

/** The operations whose request carries parameters in a body (the others take only a path id). */
const WITH_BODY = [
  'post /v2/tokens',
  'post /v2/charges',
  'post /v2/charges/refund/{id}',
  'post /v2/test_helpers/clock',
  'post /v2/test_helpers/charges/{id}/authenticate',
];

describe('GET /v2/openapi.json', () => {
  it('is a valid OpenAPI document in which every $ref resolves', async () => {
    // validate() dereferences the document, so a $ref to a missing component fails here.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('emits every resource schema the responses refer to', () => {
    const refs = new Set([...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1] ?? ''));
    for (const name of ['Token', 'Charge', 'Refund', 'Error', 'TestClock']) expect(refs).toContain(name);
    for (const name of refs) expect(document.components?.schemas?.[name], name).toBeDefined();
  });

  it('gives every operation a JSON success and error schema, and every body-taking one its request schema', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, operation })));
    expect(operations.length).toBeGreaterThanOrEqual(11);
    for (const { name, operation } of operations) {
      // The event stream's success is a text/event-stream of events, not one JSON body.
      const successType = name === 'get /v2/events/stream' ? 'text/event-stream' : 'application/json';
      expect(operation.responses?.['200']?.content?.[successType]?.schema, `${name} 200`).toBeDefined();
      expect(operation.responses?.default?.content?.['application/json']?.schema, `${name} default`).toEqual({ $ref: '#/components/schemas/Error' });
      if (WITH_BODY.includes(name)) expect(operation.requestBody?.content?.['application/json']?.schema, `${name} body`).toBeDefined();
    }
    for (const name of WITH_BODY) expect(operations.map((operation) => operation.name)).toContain(name);
  });

  it("documents the token request's shopper, ip included", () => {
    const body = document.paths['/v2/tokens']?.post?.requestBody?.content?.['application/json']?.schema as {
      properties: { shopper: { properties: Record<string, unknown>; required: string[] } };
    };
    expect(Object.keys(body.properties.shopper.properties).sort()).toEqual(['email', 'ip', 'session_id']);
    expect(body.properties.shopper.required.sort()).toEqual(['email', 'session_id']);
  });
});
