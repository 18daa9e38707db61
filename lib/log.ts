// The loader's log: records from discovery, policy and the native side, delivered to
// JavaScript listeners as events. Printing to stderr under XR_LOADER_DEBUG / VK_LOADER_DEBUG is
// layered on top of these records.
import { EventEmitter } from 'node:events';

/** Index = the native LogLevel (native/common/log.h). */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogRecord {
  readonly level: LogLevel;
  /** Which part of the loader spoke, e.g. "openxr", "openxr.discovery", "vulkan". */
  readonly source: string;
  readonly message: string;
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
