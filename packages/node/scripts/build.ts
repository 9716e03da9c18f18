// Builds dist/: the SDK's JavaScript and .d.ts, and beside them the .d.ts of the contract types it
// re-exports, so a merchant's compiler reads declarations only, never the contract's TypeScript
// sources under its own settings. `npm ci` runs this through the root `prepare` script.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = join(packageRoot, 'dist');
const contractTypes = join(dist, 'contract', 'index.d.ts');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(dist, { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.contract-types.json']) {
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: packageRoot, stdio: 'inherit' });
}

// The SDK's declarations name the contract by package; point them at the copy in dist instead, with
// a `.ts` ending as tsc writes the declarations' other relative imports.
for (const entry of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  const file = join(dist, entry);
  if (!file.endsWith('.d.ts') || file.startsWith(dirname(contractTypes))) continue;
  const local = relative(dirname(file), contractTypes).replace(/^(?!\.)/, './').replace(/\.d\.ts$/, '.ts');
  const text = readFileSync(file, 'utf8').replaceAll("from '@payframe/contract'", `from '${local}'`);
  // Any other way of naming the contract (a subpath) would send the merchant's compiler to its sources again.
  if (text.includes('@payframe/contract')) throw new Error(`${entry} names @payframe/contract in a way this build does not rewrite`);
  writeFileSync(file, text);
}
