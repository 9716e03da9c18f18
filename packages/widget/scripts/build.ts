// Builds the widget into dist/: the frame app (frame.html + hashed, immutable assets) and the loader
// (payframe.js, one IIFE at a stable URL). `npm ci` runs this through the root `prepare` script.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { build, type Plugin } from 'vite';
import { FRAME_SHAPES } from '../src/protocol/frame-shapes.ts';

const widgetRoot = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIR = join(widgetRoot, 'dist');

export async function buildWidget(outDir: string = DIST_DIR): Promise<void> {
  // The same bytes whoever builds: under vitest NODE_ENV is `test`, and vite would then compile JSX for development.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildFrame(outDir);
    await buildLoader(outDir);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  precompress(outDir);
}

const FRAME_SHAPES_MODULE = join(widgetRoot, 'src/protocol/frame-shapes.ts');

/** The frame gets the schemas' description as data, evaluated here, instead of zod and the schemas. */
function inlineFrameShapes(): Plugin {
  return {
    name: 'payframe:inline-frame-shapes',
    load: (id) => (id === FRAME_SHAPES_MODULE ? `export const FRAME_SHAPES = ${JSON.stringify(FRAME_SHAPES)};` : undefined),
  };
}

async function buildFrame(outDir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: join(widgetRoot, 'src/frame'),
    // Relative asset URLs: frame.html finds ./assets/… wherever the server mounts it.
    base: './',
    plugins: [inlineFrameShapes(), preact({ devToolsEnabled: false, prefreshEnabled: false, reactAliasesEnabled: false })],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2020',
      // The frame's CSP allows scripts from its own origin only; the polyfill would add nothing useful.
      modulePreload: { polyfill: false },
      rolldownOptions: { input: join(widgetRoot, 'src/frame/frame.html') },
    },
  });
}

async function buildLoader(outDir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2019',
      lib: { entry: join(widgetRoot, 'src/loader/index.ts'), formats: ['iife'], name: 'PayframeLoader', fileName: () => 'payframe.js' },
    },
  });
}

/** Gzipped once here at the highest level, so the server sends these bytes and the budget test weighs them. */
function precompress(outDir: string): void {
  for (const entry of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(js|css|html)$/.test(entry)) continue;
    const path = join(outDir, entry);
    writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: constants.Z_BEST_COMPRESSION }));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWidget();
