// What every discovery step shares, for any API: the platform, where diagnostics and log
// records go, and the build-time choices (SYSCONFDIR and friends) a C loader would have compiled in.
import type { LogLevel, LogRecord, LogWriter, Logger } from './log.js';
import type { Platform } from './platform/platform.js';
import { diagnosticLogLevel, formatDiagnostic, type Diagnostic } from './diagnostics.js';

export interface DiscoveryOptions {
  /** The platform to discover on (default: this process's own, lib/core/platform/host.ts). */
  platform?: Platform;
  /** SYSCONFDIR compiled into a C loader (default /usr/local/etc). */
  sysconfdir?: string;
  /** EXTRASYSCONFDIR (default /etc); null leaves it out. */
  extraSysconfdir?: string | null;
  /** Manifests larger than this are rejected with a diagnostic (default 16 MiB). */
  maxManifestBytes?: number;
  /** Where the API's loader-debug output (XR_LOADER_DEBUG, VK_LOADER_DEBUG) goes (default: process stderr). */
  logWriter?: LogWriter;
  /** Receives every log record of this call (in addition to `loaderLog` listeners). */
  onLog?: (record: LogRecord) => void;
  /** The command name printed in log lines (the Khronos loader prints the API call being served). */
  command?: string;
}

export interface DiscoveryContext<R extends string = string> {
  readonly platform: Platform;
  readonly sysconfdir: string;
  readonly extraSysconfdir: string | null;
  readonly maxManifestBytes: number;
  readonly command: string;
  readonly diagnostics: Diagnostic<R>[];
  log(level: LogLevel, message: string, command?: string, category?: string): void;
  /** Records a diagnostic and logs it at the matching level. */
  report(d: Diagnostic<R>): void;
  /** A secure environment read, logging (as the API's Khronos loader does) when a set value is ignored. */
  secureEnv(name: string): string | undefined;
}

/** A log line: what the API's Khronos loader says. */
export interface LogLine {
  readonly level: LogLevel;
  readonly message: string;
  readonly command?: string;
}

/** What differs between the APIs' contexts. */
export interface DiscoveryContextSettings {
  /** The API's logger (its dialect decides what is printed). */
  readonly logger: Logger;
  /** LogRecord.source of discovery records, e.g. "openxr.discovery". */
  readonly source: string;
  /** LogRecord.messageId of discovery records, e.g. "OpenXR-Loader". */
  readonly messageId?: string;
  /**
   * The API's Khronos loader's words when an elevated process ignores a set variable
   * (logged once per variable and context; a warning diagnostic is recorded as well).
   */
  ignoredWhileElevated(name: string, value: string): LogLine;
}

export const DEFAULT_MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
export const DEFAULT_SYSCONFDIR = '/usr/local/etc';
export const DEFAULT_EXTRA_SYSCONFDIR = '/etc';

export function createDiscoveryContext<R extends string>(
  platform: Platform,
  options: DiscoveryOptions,
  settings: DiscoveryContextSettings,
): DiscoveryContext<R> {
  const write = settings.logger;
  const command = options.command ?? '';
  const warnedSecure = new Set<string>();
  const ctx: DiscoveryContext<R> = {
    platform,
    sysconfdir: options.sysconfdir ?? DEFAULT_SYSCONFDIR,
    extraSysconfdir: options.extraSysconfdir === undefined ? DEFAULT_EXTRA_SYSCONFDIR : options.extraSysconfdir,
    maxManifestBytes: options.maxManifestBytes ?? DEFAULT_MAX_MANIFEST_BYTES,
    command,
    diagnostics: [],
    log(level, message, cmd, category) {
      write({
        level,
        source: settings.source,
        message,
        command: cmd ?? command,
        ...(settings.messageId !== undefined ? { messageId: settings.messageId } : {}),
        ...(category !== undefined ? { category } : {}),
      });
    },
    report(d) {
      ctx.diagnostics.push(d);
      ctx.log(diagnosticLogLevel(d), formatDiagnostic(d));
    },
    secureEnv(name) {
      const value = platform.env.getSecure(name);
      if (value !== undefined) return value;
      const raw = platform.env.get(name);
      if (raw !== undefined && raw !== '' && platform.elevated && !warnedSecure.has(name)) {
        warnedSecure.add(name);
        const line = settings.ignoredWhileElevated(name, raw);
        ctx.log(line.level, line.message, line.command);
        ctx.diagnostics.push({
          severity: 'warning',
          file: `environment variable ${name}`,
          reason: `ignored because the process runs elevated (value '${raw}')`,
        });
      }
      return undefined;
    },
  };
  return ctx;
}
