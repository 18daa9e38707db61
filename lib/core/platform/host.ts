// The platform this process runs on: Linux (and other POSIX systems) as createLinuxPlatform
// reads it, Windows with the real registry read through the addon and the process's integrity
// level. What discovery and the CLI use when no platform is injected.
import { loadNativeAddon } from '../native/load.js';
import { createLinuxPlatform } from './linux.js';
import { nodeFileSystem } from './node-fs.js';
import type { Platform } from './platform.js';
import { createWindowsPlatform } from './windows.js';
import { registryViewFromReader } from './windows-registry.js';
import { emitLog } from '../log.js';
import { InternalError } from '../errors.js';

export interface HostPlatformOptions {
  /** The environment to read (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Force the elevation answer (tests); default: the process's own. */
  elevated?: boolean;
}

export function createHostPlatform(options: HostPlatformOptions = {}): Platform {
  if (process.platform !== 'win32') return createLinuxPlatform(options);
  const addon = loadNativeAddon();
  const readKey = addon.windowsRegistryReadKey;
  const highIntegrity = addon.windowsHighIntegrity;
  if (readKey === undefined || highIntegrity === undefined) {
    throw new InternalError('khronos-loader: this addon binary was not built for Windows (no registry reader); reinstall the package');
  }
  const env = options.env ?? process.env;
  const pointerBits: 32 | 64 = process.arch === 'ia32' || process.arch === 'arm' ? 32 : 64;
  // A 32-bit process on 64-bit Windows sees PROCESSOR_ARCHITEW6432 (WOW64).
  const os64Bit = pointerBits === 64 || process.env.PROCESSOR_ARCHITEW6432 !== undefined;
  return createWindowsPlatform({
    env,
    fs: nodeFileSystem(),
    registry: registryViewFromReader(readKey, os64Bit, (message) => emitLog({ level: 'warn', source: 'registry', message })),
    highIntegrity: options.elevated ?? highIntegrity(),
    pointerBits,
    executablePath: process.execPath,
  });
}
