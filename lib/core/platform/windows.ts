// Windows as a platform adapter: the registry and file system views are injected (on Windows,
// host.ts passes the real registry through the addon; tests pass fixtures).
import type { PlatformEnv, PlatformFileSystem, Platform, RegistryView } from './platform.js';

export interface WindowsPlatformOptions {
  env: Readonly<Record<string, string | undefined>>;
  fs: PlatformFileSystem;
  registry: RegistryView;
  /** A high-integrity (elevated) process: secure environment reads and HKCU are then ignored. */
  highIntegrity: boolean;
  pointerBits: 32 | 64;
  executablePath: string;
}

export function createWindowsPlatform(options: WindowsPlatformOptions): Platform {
  // Windows variable names are case-insensitive.
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) lower.set(k.toLowerCase(), v);
  const get = (name: string): string | undefined => lower.get(name.toLowerCase());
  const env: PlatformEnv = {
    get,
    getSecure: (name) => (options.highIntegrity ? undefined : get(name)),
  };
  return {
    os: 'windows',
    env,
    fs: options.fs,
    elevated: options.highIntegrity,
    pointerBits: options.pointerBits,
    arch: options.pointerBits === 32 ? 'i686' : 'x86_64',
    executablePath: options.executablePath,
    pathSeparator: ';',
    registry: options.registry,
  };
}
