// Android as a platform adapter: system folders through a file system view, APK assets and
// system properties through an AndroidView.
import type { AndroidView, Platform, PlatformFileSystem } from './platform.js';

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
    android: options.android,
  };
}
