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
/** The counter's own work (bookkeeping, clock reads), kept out of the statements' times and reported apart. */
let overhead = { totalMs: 0 };

/**
 * What reading the clock twice costs between the two readings: subtracted from each measured
 * interval, so a statement's time is the driver's call and nothing of the counter.
 */
const CLOCK_MS = (() => {
  const rounds = 20_000;
  let sum = 0;
  for (let round = 0; round < rounds; round++) {
    const first = performance.now();
    sum += performance.now() - first;
  }
  return sum / rounds;
})();

/** Whitespace-normalised statement texts, computed once per distinct text instead of per call. */
const normalised = new Map();
/** @param {string} source */
function normalise(source) {
  let text = normalised.get(source);
  if (text === undefined) {
    text = source.replace(/\s+/g, ' ').trim();
    normalised.set(source, text);
  }
  return text;
}

/** @param {string} source @param {number} elapsedMs @param {boolean} background @param {boolean} failed */
function record(source, elapsedMs, background, failed) {
  const startedAt = performance.now();
  const text = normalise(source);
  const entry = statements.get(text) ?? { count: 0, background: 0, failed: 0, totalMs: 0 };
  entry.count += 1;
  if (background) entry.background += 1;
  if (failed) entry.failed += 1;
  entry.totalMs += Math.max(0, elapsedMs - CLOCK_MS);
  statements.set(text, entry);
  overhead.totalMs += performance.now() - startedAt + 2 * CLOCK_MS;
}

// Kysely calls client.query(sql, params) and awaits the promise: observe it, leave it unchanged.
const query = pg.Client.prototype.query;
/** @this {pg.Client} @param {any[]} args */
pg.Client.prototype.query = /** @type {any} */ (
  function (...args) {
    const background = serving.getStore() !== true;
    const first = args[0];
    const source = String(typeof first === 'string' ? first : (first?.text ?? '(unknown)'));
    const startedAt = performance.now();
    const result = query.apply(this, /** @type {any} */ (args));
    if (result && typeof result.then === 'function') {
      // Attached before the caller's own handlers: the time ends as the reply is handed over.
      result.then(
        () => record(source, performance.now() - startedAt, background, false),
        () => record(source, performance.now() - startedAt, background, true),
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
          const background = serving.getStore() !== true;
          let failed = true;
          const startedAt = performance.now();
          try {
            const result = original.apply(this, args);
            failed = false;
            return result;
          } finally {
            // The clock is read before any bookkeeping: the interval is better-sqlite3's call alone.
            const elapsedMs = performance.now() - startedAt;
            record(this.source, elapsedMs, background, failed);
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
  overhead = { totalMs: 0 };
});

process.on('exit', () => {
  if (!target) return;
  writeFileSync(
    target,
    JSON.stringify({ pid: process.pid, poolWaits, overheadMs: overhead.totalMs, statements: [...statements].map(([text, entry]) => ({ text, ...entry })) }),
  );
});
