import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilent, Logger } from 'pino';

/**
 * Fastify's logger for one request (`request.log`), which pino makes only when the request writes a
 * line at a level the logger keeps. Making it serialises the bindings (the request id) through the
 * redaction there and then; at `warn` and above most requests write nothing and would pay that for
 * nothing. A route with a level of its own gets its child at once: its level is not the parent's.
 * For an app whose logger is pino's (Fastify's own logger is then a pino child of it).
 */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return options.level === undefined ? new LazyChild(logger as Logger, bindings, options) : logger.child(bindings, options);
}

class LazyChild implements FastifyBaseLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #made: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #child(): Logger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  #write(level: Exclude<LevelWithSilent, 'silent'>, args: unknown[]): void {
    // Until the child exists its level is the parent's.
    if ((this.#made ?? this.#parent).isLevelEnabled(level)) (this.#child()[level] as (...line: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.#made?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}
