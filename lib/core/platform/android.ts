// Android as a platform adapter: system folders through a file system view, APK assets and
// system properties through an AndroidView. Layer libraries are introspected by the addon unless
// the view brings its own introspection.
// The addon is the package's, below every API: core reaches it through lib/core/native/load.ts, not through an API.
import { loadNativeAddon } from '../native/load.js';
import type { AndroidLayerIntrospection, AndroidView, Platform, PlatformFileSystem } from './platform.js';

/** The addon's introspection; a missing or unloadable addon is an error for that library, not a throw. */
function nativeLayerIntrospection(path: string): AndroidLayerIntrospection {
  try {
    const addon = loadNativeAddon() as unknown as { vulkanIntrospectLayerLibrary(library: string): AndroidLayerIntrospection };
    return addon.vulkanIntrospectLayerLibrary(path);
  } catch (e) {
    return { error: `'${path}': the native addon cannot introspect layer libraries: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export interface AndroidPlatformOptions {
  env?: Readonly<Record<string, string | undefined>>;
  fs: PlatformFileSystem;
  android: AndroidView;
  pointerBits?: 32 | 64;
  arch?: string;
  executablePath?: string;
}

export function createAndroidPlatform(options: AndroidPlatformOptions): Platform {
  const vars = options.env ?? {};
  const pointerBits = options.pointerBits ?? 64;
  const view = options.android;
  return {
    os: 'android',
    env: {
      get: (name) => (Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined),
      // The Khronos loader's secure getenv is a stub on Android: overrides by environment never apply.
      getSecure: () => undefined,
    },
    fs: options.fs,
    elevated: false,
    pointerBits,
    arch: options.arch ?? (pointerBits === 64 ? 'aarch64' : 'armv7a-vfp'),
    executablePath: options.executablePath ?? '/system/bin/app_process64',
    pathSeparator: ':',
    android: {
      property: (name) => view.property(name),
      ...(view.assets ? { assets: view.assets } : {}),
      ...(view.nativeLibraryDir !== undefined ? { nativeLibraryDir: view.nativeLibraryDir } : {}),
      introspectLayerLibrary: (path) => (view.introspectLayerLibrary ? view.introspectLayerLibrary(path) : nativeLayerIntrospection(path)),
    },
  };
}
