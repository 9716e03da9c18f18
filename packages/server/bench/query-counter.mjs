// @ts-check
/**
 * Preloaded into each server (`node --import`) by `npm run bench -- --count-queries`. Counts the
 * statements the server runs, with their times, and the waits for a pooled connection: exact
 * per-statement figures like pg_stat_statements gives, without restarting a shared PostgreSQL to
 * load it. On PostgreSQL a statement's time is its round trip through pg; on the embedded store it
 * is better-sqlite3's synchronous call, SQLite's own work on the server's main thread. Plain
 * JavaScript because the server runs without a TypeScript loader (bin/payframe.js bundles the
 * sources instead, leaving pg and better-sqlite3 outside: these are the copies it loads).
 *
 * A statement sent while serving an HTTP request counts for the request; the others are the
 * instance's background work (the key-generation poll, the webhook and sweeper probes), which runs
 * at its own pace however many flows there are.
 *
 * SIGUSR2 zeroes the counts (the bench sends it as the measured run starts); they are written as
 * JSON to $PAYFRAME_BENCH_QUERY_LOG when the process exits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import pg from 'pg';

const serving = new AsyncLocalStorage();
// Published as the server emits 'request': what the handler then starts carries the mark.
subscribe('http.server.request.start', () => serving.enterWith(true));

const target = process.env.PAYFRAME_BENCH_QUERY_LOG;

/** @type {Map<string, { count: number; background: number; failed: number; totalMs: number }>} */
let statements = new Map();
let poolWaits = { count: 0, totalMs: 0 };

/** @param {string} text @param {number} startedAt @param {boolean} background @param {boolean} failed */
function record(text, startedAt, background, failed) {
  const entry = statements.get(text) ?? { count: 0, background: 0, failed: 0, totalMs: 0 };
  entry.count += 1;
  if (background) entry.background += 1;
  if (failed) entry.failed += 1;
  entry.totalMs += performance.now() - startedAt;
  statements.set(text, entry);
}

// Kysely calls client.query(sql, params) and awaits the promise: observe it, leave it unchanged.
const query = pg.Client.prototype.query;
/** @this {pg.Client} @param {any[]} args */
pg.Client.prototype.query = /** @type {any} */ (
  function (...args) {
    const startedAt = performance.now();
    const background = serving.getStore() !== true;
    const result = query.apply(this, /** @type {any} */ (args));
    const first = args[0];
    const text = String(typeof first === 'string' ? first : (first?.text ?? '(unknown)'))
      .replace(/\s+/g, ' ')
      .trim();
    if (result && typeof result.then === 'function') {
      result.then(
        () => record(text, startedAt, background, false),
        () => record(text, startedAt, background, true),
      );
    }
    return result;
  }
);

// better-sqlite3 runs a prepared statement synchronously: its prototype is patched once, on the first prepare.
const prepare = Sqlite.prototype.prepare;
let statementsPatched = false;
/** @this {Sqlite.Database} @param {string} source */
Sqlite.prototype.prepare = /** @type {any} */ (
  function (source) {
    const statement = prepare.call(this, source);
    if (!statementsPatched) {
      statementsPatched = true;
      const proto = Object.getPrototypeOf(statement);
      for (const method of ['run', 'get', 'all']) {
        const original = proto[method];
        proto[method] = /** @this {Sqlite.Statement} @param {any[]} args */ function (...args) {
          const startedAt = performance.now();
          const background = serving.getStore() !== true;
          let failed = true;
          try {
            const result = original.apply(this, args);
            failed = false;
            return result;
          } finally {
            record(this.source.replace(/\s+/g, ' ').trim(), startedAt, background, failed);
          }
        };
      }
    }
    return statement;
  }
);

// Kysely takes a connection per query or transaction with pool.connect() (no callback): time the wait.
const connect = pg.Pool.prototype.connect;
/** @this {pg.Pool} @param {any[]} args */
pg.Pool.prototype.connect = /** @type {any} */ (
  function (...args) {
    const startedAt = performance.now();
    const result = connect.apply(this, /** @type {any} */ (args));
    if (args.length === 0 && result && typeof result.then === 'function') {
      result.then(
        () => {
          poolWaits.count += 1;
          poolWaits.totalMs += performance.now() - startedAt;
        },
        () => {},
      );
    }
    return result;
  }
);

process.on('SIGUSR2', () => {
  statements = new Map();
  poolWaits = { count: 0, totalMs: 0 };
});

process.on('exit', () => {
  if (!target) return;
  writeFileSync(target, JSON.stringify({ pid: process.pid, poolWaits, statements: [...statements].map(([text, entry]) => ({ text, ...entry })) }));
});
