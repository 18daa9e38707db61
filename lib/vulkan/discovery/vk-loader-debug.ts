// NODE-7: VK_LOADER_DEBUG, the Vulkan dialect of the shared logger (lib/core/log.ts), as the
// Khronos loader reads and prints it (log.c). The value is a comma-separated list of words; a word
// selects when it is a prefix of one of: error, warn, info, debug, perf, layer, driver (also
// "implem", "icd"), all. A record is printed when any of its bits (its level, and its category
// "layer" or "driver") is selected. The line is "[Vulkan Loader] LEVEL | CATEGORY: " padded to 32
// characters, then the message.
import { createLogger, stderrWriter, type LogDialect, type LogEnv, type LogLevel, type LogRecord, type LogWriter, type Logger } from '../../core/log.js';

const BIT = { error: 8, warn: 4, info: 1, debug: 16, perf: 2, layer: 32, driver: 64 } as const;
const ALL = 0xffffffff;

/** The bits a VK_LOADER_DEBUG value (or a settings file's stderr_log words) selects. */
export function vkLoaderDebugBits(words: readonly string[]): number {
  let bits = 0;
  for (const word of words) {
    if (word === '') continue;
    const is = (full: string): boolean => full.startsWith(word);
    if (is('all')) bits = ALL;
    else if (is('warn')) bits |= BIT.warn;
    else if (is('info')) bits |= BIT.info;
    else if (is('perf')) bits |= BIT.perf;
    else if (is('error')) bits |= BIT.error;
    else if (is('debug')) bits |= BIT.debug;
    else if (is('layer')) bits |= BIT.layer;
    else if (is('driver') || is('implem') || is('icd')) bits |= BIT.driver;
  }
  return bits >>> 0;
}

const LEVEL_WORD: Record<LogLevel, string> = { error: 'ERROR', warn: 'WARNING', info: 'INFO', debug: 'DEBUG' };

function recordBits(record: LogRecord): number {
  let bits: number = BIT[record.level];
  if (record.category === 'layer') bits |= BIT.layer;
  else if (record.category === 'driver') bits |= BIT.driver;
  return bits;
}

export function formatVkLoaderRecord(record: LogRecord): string {
  let header = `[Vulkan Loader] ${LEVEL_WORD[record.level]}`;
  if (record.category === 'driver') header += ' | DRIVER';
  else if (record.category === 'layer') header += ' | LAYER';
  header += ': ';
  return `${header.padEnd(32, ' ')}${record.message}\n`;
}

/** The dialect; `override` (a settings file's stderr_log words) replaces the variable when given. */
export function vkLoaderDebugDialect(override?: readonly string[]): LogDialect {
  return {
    variable: 'VK_LOADER_DEBUG',
    selects(value) {
      const bits = vkLoaderDebugBits(override ?? (value ?? '').split(','));
      return (record) => (recordBits(record) & bits) !== 0;
    },
    format: formatVkLoaderRecord,
  };
}

export const VK_LOADER_DEBUG: LogDialect = vkLoaderDebugDialect();

/** The Vulkan logger: every record to `loaderLog`, those VK_LOADER_DEBUG selects printed. */
export function createVkLogger(env: LogEnv, write: LogWriter = stderrWriter, extraSink?: Logger, stderrLog?: readonly string[]): Logger {
  return createLogger(stderrLog ? vkLoaderDebugDialect(stderrLog) : VK_LOADER_DEBUG, env, write, extraSink);
}

/** VkInstanceCreateInfo as the create-info lines describe it (what vkCreateInstance is handed). */
export interface VkCreateInfoSummary {
  readonly applicationName: string;
  readonly applicationVersion: number;
  readonly engineName: string;
  readonly engineVersion: number;
  /** VkApplicationInfo.apiVersion, packed (VK_MAKE_API_VERSION). */
  readonly apiVersion: number;
  readonly enabledLayerNames: readonly string[];
  readonly enabledExtensionNames: readonly string[];
}

/**
 * The INFO lines the Khronos loader (from 1.4.359) logs for each vkCreateInstance before
 * it looks at the layers: the application and engine names and versions, the API version as
 * major.minor.patch (the variant left out), then the requested layers and the requested
 * extensions, a count line and one indented line per name, in the application's order.
 */
export function instanceCreateInfoLines(info: VkCreateInfoSummary): string[] {
  const api = info.apiVersion >>> 0;
  const version = `${(api >>> 22) & 0x7f}.${(api >>> 12) & 0x3ff}.${api & 0xfff}`;
  return [
    `vkCreateInstance: applicationName: "${info.applicationName}", applicationVersion: ${info.applicationVersion >>> 0}, ` +
      `engineName: "${info.engineName}", engineVersion: ${info.engineVersion >>> 0}, apiVersion: ${version}`,
    `vkCreateInstance: Requested ${info.enabledLayerNames.length} instance layer(s):`,
    ...info.enabledLayerNames.map((name) => `   ${name}`),
    `vkCreateInstance: Requested ${info.enabledExtensionNames.length} instance extension(s):`,
    ...info.enabledExtensionNames.map((name) => `   ${name}`),
  ];
}
