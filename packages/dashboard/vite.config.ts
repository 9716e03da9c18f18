import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * The dashboard's build: index.html and content-hashed assets under dist/, served by the server at
 * /dashboard/. Nothing inline, so the page runs under a CSP without 'unsafe-inline'.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  logLevel: 'warn',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false, reactAliasesEnabled: false }), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    // The polyfill would be an inline script; every browser the dashboard supports preloads modules natively.
    modulePreload: { polyfill: false },
    // Never turn a small asset into a data: URL the CSP would have to allow.
    assetsInlineLimit: 0,
  },
});

/** Gzipped once at build time at the highest level, as the widget does: the server sends these bytes and the budget test weighs them. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'payframe-precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: () => {
      for (const entry of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
        if (!/\.(js|css|html)$/.test(entry)) continue;
        const path = join(outDir, entry);
        writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}
