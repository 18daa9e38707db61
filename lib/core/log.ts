// The loader's log: records from discovery, policy and the native side, delivered to
// JavaScript listeners as events. Printing to stderr under an API's debug variable
// (XR_LOADER_DEBUG, VK_LOADER_DEBUG) is layered on top of these records by a LogDialect: the
// environment given to a logger decides what is printed; listeners always receive every record.
import { typedEventEmitter, type TypedEventEmitter } from './portable-types.js';

/** Index = the native LogLevel (native/common/log.h). 'debug' is the Khronos loaders' "verbose". */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogRecord {
  readonly level: LogLevel;
  /** Which part of the loader spoke, e.g. "openxr", "openxr.discovery", "vulkan". */
  readonly source: string;
  readonly message: string;
  /** The API command being served, e.g. "xrCreateInstance" ('' when none), as the Khronos loader prints it. */
  readonly command?: string;
  /** The message id the Khronos loader prints (e.g. "OpenXR-Loader", or a VUID). */
  readonly messageId?: string;
  /**
   * What the message is about, for dialects that filter by it as well as by level
   * (VK_LOADER_DEBUG's "layer" and "driver"); absent for general messages.
   */
  readonly category?: string;
}

interface LogEvents {
  record: [LogRecord];
}

/** Subscribe with `loaderLog.on('record', (r) => ...)`. One emitter for every API. */
export const loaderLog: TypedEventEmitter<LogEvents> = typedEventEmitter<LogEvents>();

export function emitLog(record: LogRecord): void {
  loaderLog.emit('record', record);
}

export function logLevelFromNative(level: number): LogLevel {
  return LOG_LEVELS[level] ?? 'debug';
}

export type LogWriter = (text: string) => void;

export const stderrWriter: LogWriter = (text) => {
  process.stderr.write(text);
};

/** Anything with an environment lookup (a Platform's env). */
export interface LogEnv {
  get(name: string): string | undefined;
}

/**
 * How one API's Khronos loader prints its log: which environment variable selects the records
 * printed, how a value of it selects them, and the line format. Each API keeps its dialect in
 * its own discovery folder; the logger below is the same for all.
 */
export interface LogDialect {
  /** e.g. "XR_LOADER_DEBUG", "VK_LOADER_DEBUG". */
  readonly variable: string;
  /** Which records a value of `variable` (undefined when unset) has printed. */
  selects(value: string | undefined): (record: LogRecord) => boolean;
  /** One record as the Khronos loader prints it, with its line end. */
  format(record: LogRecord): string;
}

export type Logger = (record: LogRecord) => void;

/**
 * A logger for one API: every record goes to `loaderLog` listeners (and `extraSink`), and those
 * the dialect's variable selects (read from `env`, not from the process) are printed.
 */
export function createLogger(dialect: LogDialect, env: LogEnv, write: LogWriter = stderrWriter, extraSink?: Logger): Logger {
  const printed = dialect.selects(env.get(dialect.variable));
  return (record) => {
    if (printed(record)) write(dialect.format(record));
    extraSink?.(record);
    emitLog(record);
  };
}
