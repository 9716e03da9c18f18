import { API_ERROR_CODES, DASHBOARD_ONLY_CODES, EVENT_NAMES } from '@payframe/contract';
import { compileErrors, validate } from '@readme/openapi-parser';
import { type Config, createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './client.ts';
import { startServer, type TestServer } from './harness.ts';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; style?: string; explode?: boolean; schema?: any }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: any; encoding?: Record<string, { style?: string }> }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, any> };
  servers?: Array<{ url: string }>;
  info: { license?: { name: string } };
  webhooks?: Record<string, { post: Operation }>;
};

/**
 * createConfig as called here, with a YAML text: checking any call against its declared parameter
 * (a union with Redocly's whole configuration type) took the type check four to five seconds.
 */
const lintConfig = createConfig as unknown as (yaml: string) => Promise<Config>;

let server: TestServer;
let document: Document;

beforeAll(async () => {
  server = await startServer();
  const response = await client(server.url).get<Document>('/v2/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(() => server?.stop());

describe('GET /v2/openapi.json', () => {
  it('is a valid OpenAPI document in which every $ref resolves', async () => {
    // validate() dereferences the document, so a $ref to a missing component fails here.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('passes Redocly lint (the engine of `redocly lint`, its recommended rules) without an error', async () => {
    const config = await lintConfig('extends: [recommended]');
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // The one warning is the spec's own URL design (`/events/{id}/deliveries` beside `/events/resend/{id}`), kept for its clients.
    const warnings = problems.filter((problem) => problem.severity === 'warn').map((problem) => problem.ruleId);
    expect(warnings).toEqual(['no-ambiguous-paths']);
  });

  it('emits every resource schema the responses refer to', () => {
    const refs = new Set([...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1] ?? ''));
    for (const name of ['Token', 'Charge', 'Refund', 'Error', 'TestClock']) expect(refs).toContain(name);
    for (const name of refs) expect(document.components?.schemas?.[name], name).toBeDefined();
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, method, operation })),
    );

  it('gives every operation an operationId, summary and tag, its success, and each error status with the error schema', () => {
    expect(operations().length).toBe(26);
    const ids = new Set<string>();
    for (const { name, method, operation } of operations()) {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(operation.operationId ?? '');
      expect(operation.summary, name).toBeTruthy();
      expect(operation.tags?.length, name).toBe(1);
      // The event stream's success is a text/event-stream of events, not one JSON body.
      const successType = name === 'get /v2/events/stream' ? 'text/event-stream' : 'application/json';
      expect(operation.responses?.['200']?.content?.[successType]?.schema, `${name} 200`).toBeDefined();
      expect(operation.responses?.default, name).toBeUndefined();
      // The event stream included: an account's eleventh open stream is a 429.
      const statuses = ['400', '401', '403', '429', '5XX', ...(method === 'post' ? ['409', '413', '415'] : [])];
      if (name.includes('{id}')) statuses.push('404');
      for (const status of statuses) {
        expect(operation.responses?.[status]?.content?.['application/json']?.schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (method === 'post') {
        expect(operation.parameters?.find((parameter) => parameter.name === 'Idempotency-Key')?.in, name).toBe('header');
        expect(operation.responses?.['200']?.headers, name).toHaveProperty('Idempotent-Replayed');
        // A refusal is stored and replayed too; one answered before the operation runs is not.
        for (const status of ['400', '402', '403', '404'].filter((status) => operation.responses?.[status])) {
          expect(operation.responses?.[status]?.headers, `${name} ${status}`).toHaveProperty('Idempotent-Replayed');
        }
        for (const status of ['401', '409', '413', '415', '429'])
          expect(operation.responses?.[status]?.headers, `${name} ${status}`).not.toHaveProperty('Idempotent-Replayed');
      }
      expect(operation.responses?.['429']?.headers ?? { 'Retry-After': true }, name).toHaveProperty('Retry-After');
    }
    expect(ids.size).toBe(26);
    for (const name of ['post /v2/charges', 'post /v2/charges/capture/{id}', 'post /v2/charges/refund/{id}', 'post /v2/tokens']) {
      expect(document.paths[name.split(' ')[1]!]?.post?.responses?.['402'], name).toBeDefined();
    }
    expect(document.paths['/v2/events/stream']?.get?.parameters?.map((parameter) => parameter.name)).toContain('Last-Event-ID');
    // Every answer, success or error, names its request.
    for (const { name, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) expect(response.headers, `${name} ${status}`).toHaveProperty('Request-Id');
    }
  });

  it('takes every body in the three encodings with one schema, optional where nothing is required', () => {
    for (const { name, method, operation } of operations()) {
      if (method !== 'post') continue;
      const content = operation.requestBody?.content ?? {};
      expect(Object.keys(content).sort(), name).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
      const schema = content['application/json']?.schema;
      expect(content['application/x-www-form-urlencoded']?.schema, name).toEqual(schema);
      expect(content['multipart/form-data']?.schema, name).toEqual(schema);
      expect(schema.additionalProperties, name).toBe(false);
      expect(operation.requestBody?.required, name).toBe((schema.required ?? []).length > 0);
    }
    for (const optional of ['/v2/charges/capture/{id}', '/v2/charges/cancel/{id}', '/v2/charges/refund/{id}', '/v2/events/resend/{id}']) {
      expect(document.paths[optional]?.post?.requestBody?.required, optional).toBe(false);
    }
    const token = document.paths['/v2/tokens']?.post?.requestBody?.content?.['application/x-www-form-urlencoded'];
    expect(token?.encoding?.card?.style).toBe('deepObject');
  });

  it('states the constraints the server enforces: integer bounds, limit, deepObject queries, enums, id, currency and card number patterns', () => {
    const list = document.paths['/v2/charges']?.get?.parameters ?? [];
    expect(list.find((parameter) => parameter.name === 'limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(list.find((parameter) => parameter.name === 'created')).toMatchObject({
      style: 'deepObject',
      explode: true,
      schema: { additionalProperties: false },
    });
    const amount = document.paths['/v2/charges']?.post?.requestBody?.content?.['application/json']?.schema.properties.amount;
    expect(amount.anyOf).toContainEqual({ type: 'integer', minimum: 1, maximum: 99_999_999 });
    const digits = new RegExp(amount.anyOf.find((branch: { type: string }) => branch.type === 'string').pattern);
    expect(['1', '500', '99999999'].every((value) => digits.test(value))).toBe(true);
    expect(['0', '-5', '1000.5', '100000000'].some((value) => digits.test(value))).toBe(false);
    const returnUrl = new RegExp(document.paths['/v2/charges']?.post?.requestBody?.content?.['application/json']?.schema.properties.return_url.pattern);
    expect(['ftp://shop.example/', 'https://user@shop.example/', 'https://ex_ample.com/'].some((value) => returnUrl.test(value))).toBe(false);
    expect(['https://shop.example/', 'HTTP://[::1]:3000/r?x#y', 'https://shop.example/a b'].every((value) => returnUrl.test(value))).toBe(true);
    const currency = new RegExp(document.paths['/v2/charges']?.post?.requestBody?.content?.['application/json']?.schema.properties.currency.pattern);
    expect(['EUR', 'eur'].every((value) => currency.test(value))).toBe(true);
    expect(['EURO', 'EU', 'E1R'].some((value) => currency.test(value))).toBe(false);
    const cardNumber = new RegExp(
      document.paths['/v2/tokens']?.post?.requestBody?.content?.['application/json']?.schema.properties.card.properties.number.pattern,
    );
    expect(['4242424242424242', '4242 4242 4242 4242', '4242-4242-4242-4242'].every((value) => cardNumber.test(value))).toBe(true);
    expect(['abcd', '', '4'.repeat(20), '4242 x242'].some((value) => cardNumber.test(value))).toBe(false);
    expect(JSON.stringify(document)).not.toContain('starts_with');
    expect(document.components?.schemas?.Charge.properties.id.pattern).toBeDefined();
    expect(document.components?.schemas?.Event.properties.id.pattern).toBeDefined();
    const codes = document.components?.schemas?.Error.properties.error.properties.code.enum;
    expect(codes).toEqual([...API_ERROR_CODES]);
    for (const code of DASHBOARD_ONLY_CODES) expect(codes).not.toContain(code);
  });

  it('names its servers and license, and describes each webhook event', () => {
    expect(document.servers?.length).toBeGreaterThan(0);
    expect(document.info.license?.name).toBeTruthy();
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...EVENT_NAMES].sort());
    for (const [name, webhook] of Object.entries(document.webhooks ?? {})) {
      expect(JSON.stringify(webhook.post.requestBody), name).toContain(`"const":"${name}"`);
    }
  });

  it("documents the token request's shopper, ip included", () => {
    const body = document.paths['/v2/tokens']?.post?.requestBody?.content?.['application/json']?.schema as {
      properties: { shopper: { properties: Record<string, unknown>; required: string[] } };
    };
    expect(Object.keys(body.properties.shopper.properties).sort()).toEqual(['email', 'ip', 'session_id']);
    expect(body.properties.shopper.required.sort()).toEqual(['email', 'session_id']);
    // IPv6 as the server takes it (a URL's host): by its format, without zod's narrower pattern.
    const ip = JSON.stringify(body.properties.shopper.properties.ip);
    expect(ip).toContain('"format":"ipv6"');
    expect(JSON.parse(ip).anyOf.find((branch: { format?: string }) => branch.format === 'ipv6')).not.toHaveProperty('pattern');
  });
});
