import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './client.ts';
import { createKeys, type Keys, startServer, type TestServer } from './harness.ts';

// The OpenAPI document (docs/api.md): a client generated from the served document by openapi-typescript, used through
// openapi-fetch, compiles under strict and exactOptionalPropertyTypes and runs token → charge →
// partial capture → refund without a body → a list filtered by created[gte] (a deepObject: a
// wrongly described `created` made such clients send ?gte=…, which the server ignored).

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

let server: TestServer;
let keys: Keys;
let folder: string;

beforeAll(async () => {
  server = await startServer();
  keys = await createKeys(server.dataDir, 'typed-client');
  // Inside the package, so that openapi-fetch resolves from its node_modules.
  folder = mkdtempSync(join(here, 'openapi', '.generated-'));
});
afterAll(async () => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  await server?.stop();
});

describe('a client generated from /v2/openapi.json', () => {
  it('compiles strictly and runs a whole flow', async () => {
    const document = (await client(server.url).get('/v2/openapi.json')).body;
    writeFileSync(join(folder, 'api.ts'), astToString(await openapiTS(document)));
    // A template, not a .ts file of the repository: it compiles only beside the generated api.ts.
    cpSync(join(here, 'openapi', 'typed-flow.ts.template'), join(folder, 'flow.ts'));
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          allowImportingTsExtensions: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['flow.ts', 'api.ts'],
      }),
    );
    await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', folder]).catch((error: { stdout?: string }) => {
      throw new Error(`the generated client does not compile:\n${error.stdout}`);
    });

    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(folder, 'flow.ts')], {
      env: { ...process.env, PAYFRAME_URL: server.url, SECRET_KEY: keys.secretKey },
      cwd: root,
    });
    const seen = JSON.parse(stdout) as {
      chargeId: string;
      amountCaptured: number;
      refunded: number;
      listed: string[];
      later: number;
      refusedStatus: number;
      code: string;
    };
    expect(seen).toMatchObject({ amountCaptured: 600, refunded: 600, later: 0, refusedStatus: 402, code: 'CHARGE_ALREADY_REFUNDED' });
    expect(seen.listed).toContain(seen.chargeId);
    // A TypeScript compile and a process: on a busy shared host that outlasts the default 30 s.
  }, 120_000);
});
