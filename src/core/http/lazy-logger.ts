// Each request gets its own logger bound to its id, and pino builds that child (its bindings
// serialized to JSON) even when the request logs nothing, which is nearly every request at the
// production level. The child is made here on the first line actually written instead.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

/** pino's loggers answer whether a level is written; fastify's type leaves that out. */
type PinoLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(private readonly parent: PinoLogger, private readonly bindings: Bindings) {}

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  trace(...args: unknown[]) { this.write('trace', args); }
  debug(...args: unknown[]) { this.write('debug', args); }
  info(...args: unknown[]) { this.write('info', args); }
  warn(...args: unknown[]) { this.write('warn', args); }
  error(...args: unknown[]) { this.write('error', args); }
  fatal(...args: unknown[]) { this.write('fatal', args); }
  silent() {}

  get level(): string { return this.real().level; }
  set level(level: string) { this.real().level = level; }
  isLevelEnabled(level: string): boolean { return this.parent.isLevelEnabled(level); }

  /** A logger made from this one (by a plugin) is an ordinary pino child of the request's. */
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/**
 * Fastify's childLoggerFactory: a lazy child for the usual request, the plugin's own child when
 * the route asks for another level or serializers (rare, and those change how lines are written).
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // The logger of `logger: false` has no levels to ask, and its child is itself anyway.
  if (options.level !== undefined || options.serializers !== undefined || typeof (logger as Partial<PinoLogger>).isLevelEnabled !== 'function') {
    return logger.child(bindings, options);
  }
  return new LazyRequestLogger(logger as PinoLogger, bindings) as unknown as FastifyBaseLogger;
}
