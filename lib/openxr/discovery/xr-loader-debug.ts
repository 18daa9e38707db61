// XR_LOADER_DEBUG: the OpenXR dialect of the shared logger (lib/core/log.ts).
import { createLogger, stderrWriter, type LogDialect, type LogEnv, type LogLevel, type LogRecord, type LogWriter, type Logger } from '../../core/log.js';

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

export const XR_LOADER_DEBUG: LogDialect = {
  variable: 'XR_LOADER_DEBUG',
  selects(value) {
    const levels = xrLoaderDebugLevels(value);
    return (record) => levels.has(record.level);
  },
  format: formatXrLoaderRecord,
};

/** The OpenXR logger: every record to `loaderLog`, those XR_LOADER_DEBUG selects printed. */
export function createXrLogger(env: LogEnv, write: LogWriter = stderrWriter, extraSink?: Logger): Logger {
  return createLogger(XR_LOADER_DEBUG, env, write, extraSink);
}
