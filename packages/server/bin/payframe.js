#!/usr/bin/env node
// The CLI built by `npm run build` (dist/cli.js, one file): plain JavaScript, nothing compiled at start.
// Its source map holds our own sources only, so stack traces name the TypeScript lines cheaply.
process.setSourceMapsEnabled(true);
await import('../dist/cli.js');
