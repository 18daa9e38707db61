// Loads the compiled addon through node-gyp-build: the local build (build/Release) when this is
// a source checkout, otherwise the prebuilt binary shipped in prebuilds/<platform>-<arch>/.
// KHRONOS_LOADER_NATIVE_DIR names another folder holding khronos_loader.node and the libraries
// beside it (npm run test:sanitize points it at the sanitizer build).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { emitLog, logLevelFromNative } from '../log.js';
import { locateAddonBinary } from './binary.js';
import type { RegistryHive } from '../platform/platform.js';
import type { RegistryKeyContents } from '../platform/windows-registry.js';

/** A shared library opened by the native side (dlopen RTLD_NOW | RTLD_LOCAL). */
export interface NativeLibrary {
  readonly path: string;
  readonly isOpen: boolean;
  /** The symbol's address, or null when the library does not export it. */
  symbolAddress(name: string): bigint | null;
  /** The symbol's address; throws a LibraryError naming the symbol when it is absent. */
  requireSymbolAddress(name: string): bigint;
  /** Drops this object's reference; the library is unloaded when no owner is left. */
  close(): void;
}

/**
 * What the addon exports that both APIs share: the library objects, the log bridge, the count of
 * libraries held open, the N-API version and the Windows registry reader. Each API types its own
 * part of the addon in lib/openxr/native/addon.ts and lib/vulkan/native/addon.ts.
 */
export interface NativeAddon {
  readonly napiVersion: number;
  readonly NativeLibrary: new (path: string) => NativeLibrary;
  setLogHandler(handler: ((level: number, source: string, message: string) => void) | null): void;
  /** Resolves once every record emitted before the call has reached the handler. */
  flushLog(): Promise<void>;
  openLibraryCount(): number;
  /** Windows only (native/addon/windows_registry.h): one registry key, null when it does not exist; throws KL_REGISTRY_ERROR when it cannot be read. */
  windowsRegistryReadKey?(hive: RegistryHive, key: string): RegistryKeyContents | null;
  /** Windows only: the process runs at high integrity (elevated). */
  windowsHighIntegrity?(): boolean;
}

/** The package root: dist/core/native/load.js and lib/core/native/load.ts both sit three levels below it. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

let addon: NativeAddon | undefined;

/**
 * The folder holding the addon binary that node-gyp-build picks (build/Release in a checkout,
 * prebuilds/<platform>-<arch> in the package). The shared libraries that ship with the addon
 * (the simulated runtime, the bundled layers) sit beside it.
 */
export function nativeArtifactDir(): string {
  return path.dirname(addonBinaryPath());
}

/**
 * The addon binary node-gyp-build picks; PrebuildMissingError (one message, no stack) when there is
 * none. KHRONOS_LOADER_NATIVE_DIR names another build's folder (npm run test:sanitize's instrumented one).
 */
export function addonBinaryPath(): string {
  const override = process.env.KHRONOS_LOADER_NATIVE_DIR;
  if (override) return path.resolve(override, 'khronos_loader.node');
  const require = createRequire(import.meta.url);
  const nodeGypBuild = require('node-gyp-build') as { path(dir: string): string };
  return locateAddonBinary(packageRoot, (root) => nodeGypBuild.path(root));
}

export function loadNativeAddon(): NativeAddon {
  if (addon === undefined) {
    const require = createRequire(import.meta.url);
    addon = require(addonBinaryPath()) as NativeAddon;
    // Native log records join the same stream as the TypeScript side's.
    addon.setLogHandler((level, source, message) => emitLog({ level: logLevelFromNative(level), source, message }));
  }
  return addon;
}

/**
 * Resolves once every log record the native side emitted before this call has reached `loaderLog`
 * listeners. Native records are emitted on whatever thread spoke and delivered through the event
 * loop, so a listener sees them some time after the call that logged them: await this before
 * reading what a call logged. Resolves at once when the addon is not loaded (nothing native spoke).
 */
export function flushLoaderLog(): Promise<void> {
  return addon === undefined ? Promise.resolve() : addon.flushLog();
}
