import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type PinoLike = FastifyBaseLogger & {
  levels?: { values: Record<string, number> };
  isLevelEnabled?: (level: string) => boolean;
};

/**
 * A request's logger that becomes pino's child logger only when it first writes a line. pino
 * builds a child eagerly (its bindings serialized, its redaction set up): on a health check,
 * which writes no line at all, that was a twentieth of the request's CPU. Lines at a
 * level the request does not log (its route's `logLevel`, else the server's) cost a comparison.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | null = null;
  readonly #threshold: number;

  constructor(
    readonly parent: PinoLike,
    readonly bindings: Record<string, unknown>,
    readonly options: { level?: string },
  ) {
    this.#threshold = valueOf(parent, options.level ?? parent.level);
  }

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    if (this.#child) return (this.#child as PinoLike).isLevelEnabled?.(level) ?? true;
    return valueOf(this.parent, level) >= this.#threshold;
  }

  #write(level: Level, args: unknown[]) {
    if (!this.isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/** A level's number in pino's scale ('silent' above every level: nothing is written). */
function valueOf(logger: PinoLike, level: string): number {
  if (level === 'silent') return Infinity;
  return logger.levels?.values[level] ?? 0;
}

/** Fastify's `childLoggerFactory`: each request gets a lazy child of the server's logger. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: { level?: string },
): FastifyBaseLogger {
  return new LazyChildLogger(logger as PinoLike, bindings, options) as unknown as FastifyBaseLogger;
}
