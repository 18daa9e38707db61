// The loader's log: records from discovery, policy and the native side, delivered to
// JavaScript listeners as events. Printing to stderr under XR_LOADER_DEBUG (and later
// VK_LOADER_DEBUG) is layered on top of these records: the environment given to a logger decides
// what is printed; listeners always receive every record.
import { EventEmitter } from 'node:events';

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
}

interface LogEvents {
  record: [LogRecord];
}

/** Subscribe with `loaderLog.on('record', (r) => ...)`. */
export const loaderLog = new EventEmitter<LogEvents>();

export function emitLog(record: LogRecord): void {
  loaderLog.emit('record', record);
}

export function logLevelFromNative(level: number): LogLevel {
  return LOG_LEVELS[level] ?? 'debug';
}

// ---- XR_LOADER_DEBUG ---------------------------------------------------------------------------

/**
 * Which levels the OpenXR loader prints for an XR_LOADER_DEBUG value, as the Khronos loader
 * decides (loader_logger.cpp): errors are printed unless the value is "none"; "error", "warn",
 * "info", "verbose"/"all" add the levels up to that one; any other value adds nothing.
 * (The Khronos loader prints the XR_LOADER_DEBUG stream to stdout and errors to stderr; we print
 * one stream, each record once, to stderr, so that stdout stays the program's own.)
 */
export function xrLoaderDebugLevels(value: string | undefined): ReadonlySet<LogLevel> {
  if (value === 'none') return new Set();
  switch (value) {
    case 'warn':
      return new Set<LogLevel>(['error', 'warn']);
    case 'info':
      return new Set<LogLevel>(['error', 'warn', 'info']);
    case 'verbose':
    case 'all':
      return new Set<LogLevel>(['error', 'warn', 'info', 'debug']);
    default:
      return new Set<LogLevel>(['error']);
  }
}

const XR_SEVERITY_WORD: Record<LogLevel, string> = {
  error: 'Error',
  warn: 'Warning',
  info: 'Info',
  debug: 'Verbose',
};

/** One record in the Khronos OpenXR loader's stream format (OutputMessageToStream). */
export function formatXrLoaderRecord(record: LogRecord): string {
  const command = record.command ?? '';
  const id = record.messageId ?? 'OpenXR-Loader';
  return `${XR_SEVERITY_WORD[record.level]} [GENERAL | ${command} | ${id}] : ${record.message}\n`;
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
 * A logger for the OpenXR side: every record goes to `loaderLog` listeners (and `extraSink`),
 * and those XR_LOADER_DEBUG selects (read from `env`, not from the process) are printed.
 */
export function createXrLogger(env: LogEnv, write: LogWriter = stderrWriter, extraSink?: (r: LogRecord) => void): (r: LogRecord) => void {
  const printed = xrLoaderDebugLevels(env.get('XR_LOADER_DEBUG'));
  return (record) => {
    if (printed.has(record.level)) write(formatXrLoaderRecord(record));
    extraSink?.(record);
    emitLog(record);
  };
}
