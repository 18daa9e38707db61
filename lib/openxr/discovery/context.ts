// What every discovery step shares: the platform, where diagnostics and log records go, and
// the build-time choices (SYSCONFDIR and friends) a C loader would have compiled in.
import { createXrLogger, type LogRecord, type LogWriter } from '../../core/log.js';
import type { Platform } from '../../core/platform/platform.js';
import { formatDiagnostic, type Diagnostic } from './diagnostics.js';

export interface DiscoveryOptions {
  /** The platform to discover on (default: the real Linux platform). */
  platform?: Platform;
  /** SYSCONFDIR compiled into a C loader (default /usr/local/etc). */
  sysconfdir?: string;
  /** EXTRASYSCONFDIR (default /etc); null leaves it out. */
  extraSysconfdir?: string | null;
  /** Manifests larger than this are rejected with a diagnostic (default 16 MiB). */
  maxManifestBytes?: number;
  /** Where XR_LOADER_DEBUG output goes (default: process stderr). */
  logWriter?: LogWriter;
  /** Receives every log record of this call (in addition to `loaderLog` listeners). */
  onLog?: (record: LogRecord) => void;
  /** The command name printed in log lines (the Khronos loader prints the API call being served). */
  command?: string;
}

export interface DiscoveryContext {
  readonly platform: Platform;
  readonly sysconfdir: string;
  readonly extraSysconfdir: string | null;
  readonly maxManifestBytes: number;
  readonly command: string;
  readonly diagnostics: Diagnostic[];
  log(level: LogRecord['level'], message: string, command?: string): void;
  /** Records a diagnostic and logs it at the matching level. */
  report(d: Diagnostic): void;
  /** A secure environment read, logging (as the Khronos loader does) when a set value is ignored. */
  secureEnv(name: string): string | undefined;
}

export const DEFAULT_MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export function createContext(platform: Platform, options: DiscoveryOptions): DiscoveryContext {
  const write = createXrLogger(platform.env, options.logWriter, options.onLog);
  const command = options.command ?? '';
  const warnedSecure = new Set<string>();
  const ctx: DiscoveryContext = {
    platform,
    sysconfdir: options.sysconfdir ?? '/usr/local/etc',
    extraSysconfdir: options.extraSysconfdir === undefined ? '/etc' : options.extraSysconfdir,
    maxManifestBytes: options.maxManifestBytes ?? DEFAULT_MAX_MANIFEST_BYTES,
    command,
    diagnostics: [],
    log(level, message, cmd) {
      write({ level, source: 'openxr.discovery', message, command: cmd ?? command, messageId: 'OpenXR-Loader' });
    },
    report(d) {
      ctx.diagnostics.push(d);
      ctx.log(d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warn' : 'info', formatDiagnostic(d));
    },
    secureEnv(name) {
      const value = platform.env.getSecure(name);
      if (value !== undefined) return value;
      const raw = platform.env.get(name);
      if (raw !== undefined && raw !== '' && platform.elevated && !warnedSecure.has(name)) {
        warnedSecure.add(name);
        // The Khronos loader's words (platform_utils.hpp), logged as an error under "platform_utils".
        ctx.log(
          'error',
          `!!! WARNING !!! Environment variable ${name} is being ignored due to running with secure execution. The value '${raw}' will NOT be used.`,
          'platform_utils',
        );
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
