// A platform for tests: absolute paths live under a real `root` folder (so fixture trees are
// ordinary temp directories), the environment is a map, and the registry is a map.
import { nodeFileSystem, rootedPosixMapping, rootedWindowsMapping } from './node-fs.js';
import {
  envFromMap,
  type AndroidView,
  type OsName,
  type Platform,
  type RegistryHive,
  type RegistryValue,
  type RegistryView,
} from './platform.js';

export interface FixturePlatformOptions {
  root: string;
  os?: OsName;
  env?: Readonly<Record<string, string | undefined>>;
  elevated?: boolean;
  pointerBits?: 32 | 64;
  arch?: string;
  executablePath?: string;
  registry?: RegistryView;
  android?: AndroidView;
}

export function createFixturePlatform(options: FixturePlatformOptions): Platform {
  const os = options.os ?? 'linux';
  const elevated = options.elevated ?? false;
  const windows = os === 'windows';
  const mapping = windows ? rootedWindowsMapping(options.root) : rootedPosixMapping(options.root);
  const env = envFromMap(options.env ?? {}, elevated);
  return {
    os,
    // The Khronos loader's secure getenv is a stub on Android: it never answers.
    env: os === 'android' ? { get: env.get, getSecure: () => undefined } : env,
    fs: nodeFileSystem(mapping),
    elevated,
    pointerBits: options.pointerBits ?? 64,
    arch: options.arch ?? 'x86_64',
    executablePath: options.executablePath ?? (windows ? 'C:\\app\\app.exe' : '/usr/bin/app'),
    pathSeparator: windows ? ';' : ':',
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.android ? { android: options.android } : {}),
  };
}

/** A registry from a map: `{ 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1': [values...] }` (key names are case-insensitive). */
export function registryFromMap(
  keys: Readonly<Record<string, readonly RegistryValue[]>>,
  os64Bit = true,
): RegistryView {
  const normalized = new Map<string, readonly RegistryValue[]>();
  for (const [k, v] of Object.entries(keys)) normalized.set(k.toLowerCase(), v);
  return {
    os64Bit,
    values(hive: RegistryHive, key: string) {
      return normalized.get(`${hive}\\${key}`.toLowerCase());
    },
    subkeys(hive: RegistryHive, key: string) {
      // A key exists when it or a key below it is in the map; its subkeys are the next path parts.
      const prefix = `${hive}\\${key}\\`.toLowerCase();
      const names = new Set<string>();
      for (const original of Object.keys(keys)) {
        if (!original.toLowerCase().startsWith(prefix)) continue;
        const next = original.slice(prefix.length).split('\\')[0];
        if (next) names.add(next);
      }
      return names.size > 0 || normalized.has(prefix.slice(0, -1)) ? [...names].sort() : undefined;
    },
  };
}
