// Builds the widget into dist/: the frame app (frame.html with its script and styles inline, and their
// hashes for its CSP in frame-csp.json) and the loader (payframe.js, one IIFE at a stable URL). `npm ci`
// runs this through the root `prepare` script.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipAsync } from '@gfx/zopfli';
import { build, type Plugin } from 'vite';

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
  await precompress(outDir);
}

/** Modules the frame takes as data: the zod schemas' description, credit-card-type's table as a string, the country codes' bitmap. */
const EVALUATED_MODULES = [
  'src/protocol/frame-shapes.ts',
  'src/frame/card/card-table.ts',
  'src/frame/fields/country-codes.ts',
  'src/frame/i18n/messages.ts',
].map((path) => join(widgetRoot, path));

/** Evaluates those modules here and bundles their exported values only, not the libraries that made them. */
function inlineEvaluated(): Plugin {
  return {
    name: 'payframe:inline-evaluated',
    async load(id) {
      if (!EVALUATED_MODULES.includes(id)) return undefined;
      const exported = Object.entries((await import(pathToFileURL(id).href)) as Record<string, unknown>);
      for (const [name, value] of exported) {
        if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) throw new Error(`${id}: export ${name} is not plain data`);
      }
      return dataModule(exported);
    },
  };
}

/**
 * The exports as JavaScript literals, each object or array that repeats (a style state, a CSS value's
 * check) written once, and the keys of objects that share six or more (a locale's labels and errors)
 * listed once, the objects then built from their values.
 */
export function dataModule(exported: Array<[string, unknown]>): string {
  const definedEntries = (value: object) => Object.entries(value).filter(([, inner]) => inner !== undefined);
  const keysOf = (value: object) => JSON.stringify(definedEntries(value).map(([key]) => key));
  const counts = new Map<string, number>();
  const keyCounts = new Map<string, number>();
  const count = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    const json = JSON.stringify(value);
    counts.set(json, (counts.get(json) ?? 0) + 1);
    if (counts.get(json) !== 1) return;
    if (!Array.isArray(value) && definedEntries(value).length >= 6) keyCounts.set(keysOf(value), (keyCounts.get(keysOf(value)) ?? 0) + 1);
    // The parts of a repeat are shared along with it.
    for (const child of Object.values(value)) count(child);
  };
  for (const [, value] of exported) count(value);
  const shared = new Map<string, string>();
  const keyLists = new Map<string, string>();
  const lines: string[] = [];
  const keyList = (keys: string): string => {
    const known = keyLists.get(keys);
    if (known) return known;
    const name = `keys${keyLists.size}`;
    keyLists.set(keys, name);
    lines.push(`const ${name} = ${keys};`);
    return name;
  };
  const write = (value: unknown): string => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    const json = JSON.stringify(value);
    const known = shared.get(json);
    if (known) return known;
    let code: string;
    if (Array.isArray(value)) code = `[${value.map(write).join(',')}]`;
    else if ((keyCounts.get(keysOf(value)) ?? 0) >= 2)
      code = `zip(${keyList(keysOf(value))},[${definedEntries(value)
        .map(([, inner]) => write(inner))
        .join(',')}])`;
    else
      code = `{${definedEntries(value)
        .map(([key, inner]) => `${JSON.stringify(key)}:${write(inner)}`)
        .join(',')}}`;
    if ((counts.get(json) ?? 0) < 2 || json.length < 16) return code;
    const name = `shared${shared.size}`;
    shared.set(json, name);
    lines.push(`const ${name} = ${code};`);
    return name;
  };
  for (const [name, value] of exported) lines.push(`export const ${name} = ${write(value)};`);
  if (keyLists.size > 0) lines.push('function zip(keys, values) { return Object.fromEntries(keys.map((key, index) => [key, values[index]])); }');
  return lines.join('\n');
}

/** The page without the whitespace between its tags, and without `crossorigin` on its own same-origin assets (until inlined). */
function compactPage(): Plugin {
  return {
    name: 'payframe:compact-page',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html
          .replace(/>\s+</g, '><')
          .replace(/ crossorigin/g, '')
          .trim(),
    },
  };
}

/**
 * V8's explicit compile hint (Chrome 136+), as a script's first line: compile every function with the
 * script instead of one by one when first called.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** What the server puts in the frame's Content-Security-Policy: the hashes of the page's inline script and style. */
export const FRAME_CSP_FILE = 'frame-csp.json';

/**
 * The frame's script and styles inlined into frame.html: a cold mount waits for the page's round trip
 * only, not for a second one for its assets. The server allows exactly these by hash (FRAME_CSP_FILE).
 */
function inlineAssets(): Plugin {
  return {
    name: 'payframe:inline-assets',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['frame.html'];
      if (page?.type !== 'asset') throw new Error('frame.html is missing from the bundle');
      let html = String(page.source);
      const hashes = { scripts: [] as string[], styles: [] as string[] };
      for (const file of Object.values(bundle)) {
        if (file === page) continue;
        // Nearly every function of the frame runs on its first render (a shorter cold time from script to ready).
        const text = file.type === 'chunk' ? `${COMPILE_HINT}${file.code}` : String(file.source);
        // The HTML parser ends an inline script or style at the first `</`-tag of its name, wherever it is.
        if (/<\/(script|style)|<!--/i.test(text)) throw new Error(`${file.fileName} cannot be inlined: it contains a closing tag or a comment opener`);
        const hash = `sha256-${createHash('sha256').update(text).digest('base64')}`;
        const url = `./${file.fileName}`;
        if (file.type === 'chunk' && html.includes(`<script type="module" src="${url}"></script>`)) {
          html = html.replace(`<script type="module" src="${url}"></script>`, () => `<script type="module">${text}</script>`);
          hashes.scripts.push(hash);
        } else if (file.fileName.endsWith('.css') && html.includes(`<link rel="stylesheet" href="${url}">`)) {
          html = html.replace(`<link rel="stylesheet" href="${url}">`, () => `<style>${text}</style>`);
          hashes.styles.push(hash);
        } else {
          throw new Error(`${file.fileName} is not referenced by frame.html as a script or stylesheet`);
        }
        delete bundle[file.fileName];
      }
      page.source = html;
      this.emitFile({ type: 'asset', fileName: FRAME_CSP_FILE, source: `${JSON.stringify(hashes)}\n` });
    },
  };
}

async function buildFrame(outDir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: join(widgetRoot, 'src/frame'),
    // Relative asset URLs (./assets/…), the names inlineAssets() looks for in the page.
    base: './',
    plugins: [inlineEvaluated(), compactPage(), inlineAssets()],
    // h(type, props, ...children) is shorter in every element than the automatic runtime's jsx(type, { children }).
    oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' }, jsxInject: "import { h, Fragment } from 'preact'" },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2020',
      // Browsers that know system-ui: the CSS minifier would otherwise spell out a font stack for older ones.
      cssTarget: ['chrome87', 'firefox92', 'safari14.1'],
      // terser with two passes leaves the frame about 170 B gzipped smaller than the default minifier does.
      minify: 'terser',
      terserOptions: { module: true, ecma: 2020, compress: { passes: 3, pure_getters: true, unsafe: true, unsafe_arrows: true, unsafe_methods: true } },
      // The frame's CSP allows its one inline script only; the polyfill would add nothing useful.
      modulePreload: { polyfill: false },
      // terser is the slow step by design; rolldown would report it on every build.
      rolldownOptions: { input: join(widgetRoot, 'src/frame/frame.html'), checks: { pluginTimings: false } },
    },
  });
}

/**
 * The loader is compiled whole when the merchant's page loads it, with the compile hint: mount() then
 * no longer compiles its own path (options check, iframe, handshake) before the frame's request can
 * start.
 */
async function buildLoader(outDir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: false,
      // Optional chaining and ?? as written (every browser since 2020): lowered, they cost the 3 KB
      // budget about 90 bytes gzipped.
      target: 'es2020',
      lib: { entry: join(widgetRoot, 'src/loader/index.ts'), formats: ['iife'], name: 'PayframeLoader', fileName: () => 'payframe.js' },
    },
  });
  const path = join(outDir, 'payframe.js');
  writeFileSync(path, `${COMPILE_HINT}${readFileSync(path, 'utf8')}`);
}

/**
 * Gzipped once here, so the server sends these bytes and the budget test weighs them. Zopfli writes
 * ordinary gzip about 5% smaller than zlib's best level, at a cost of a second or two per build.
 */
async function precompress(outDir: string): Promise<void> {
  for (const entry of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(js|css|html)$/.test(entry)) continue;
    const path = join(outDir, entry);
    writeFileSync(`${path}.gz`, await gzipAsync(readFileSync(path), { numiterations: 50 }));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildWidget();
  // What other packages import of the widget (its public types, the 3-D Secure message), apart from the served dist/.
  rmSync(join(widgetRoot, 'lib'), { recursive: true, force: true });
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: widgetRoot,
    stdio: 'inherit',
  });
}
