// The OpenXR discovery context: the core context (lib/core/context.ts) with OpenXR's logger,
// record source and message id, and the Khronos OpenXR loader's words for ignored variables.
import { createDiscoveryContext, type DiscoveryContext as CoreDiscoveryContext, type DiscoveryOptions } from '../../core/context.js';
import type { LogEnv } from '../../core/log.js';
import type { Platform } from '../../core/platform/platform.js';
import type { XrResultName } from '../errors.js';
import { createXrLogger } from './xr-loader-debug.js';

export type { DiscoveryOptions };

export type DiscoveryContext = CoreDiscoveryContext<XrResultName>;

/**
 * `logEnv` is where XR_LOADER_DEBUG is read (default: the platform's environment). A loader with
 * properties passes its environment without them: the Khronos loader (1.1.61) builds its logger from
 * XR_LOADER_DEBUG once, at its first message, and xrInitializeLoaderKHR logs before it stores the
 * properties, so an XR_LOADER_DEBUG property never changes what it prints (docs/conformance.md).
 */
export function createContext(platform: Platform, options: DiscoveryOptions, logEnv: LogEnv = platform.env): DiscoveryContext {
  return createDiscoveryContext<XrResultName>(platform, options, {
    logger: createXrLogger(logEnv, options.logWriter, options.onLog),
    source: 'openxr.discovery',
    messageId: 'OpenXR-Loader',
    // The Khronos loader's words (platform_utils.hpp), logged as an error under "platform_utils".
    ignoredWhileElevated: (name, value) => ({
      level: 'error',
      message: `!!! WARNING !!! Environment variable ${name} is being ignored due to running with secure execution. The value '${value}' will NOT be used.`,
      command: 'platform_utils',
    }),
  });
}
