// The Platform: everything discovery may learn about the machine, injected so that every
// platform's rules can be tested on Linux. API-neutral: OpenXR uses it now, Vulkan later.
import * as path from 'node:path';

export type OsName = 'linux' | 'windows' | 'macos' | 'android' | 'fuchsia';

/** The process environment. */
export interface PlatformEnv {
  /** The raw value; '' when set to the empty string, undefined when unset. */
  get(name: string): string | undefined;
  /**
   * secure_getenv semantics: undefined when the process runs with elevated privileges
   * (setuid/setgid/capabilities on POSIX, high integrity on Windows), else as `get`.
   * On Android the Khronos loader's secure getenv is a stub that always answers nothing.
   */
  getSecure(name: string): string | undefined;
}

export type FileKind = 'file' | 'directory' | 'other';

export interface FileStat {
  readonly kind: FileKind;
  readonly size: number;
}

/**
 * The file system view: what discovery reads, nothing more. Paths are the platform's own
 * (e.g. `C:\x\y.json` on Windows). Every method answers instead of throwing: undefined means
 * "not there / not readable", with the reason in `error` where one is useful.
 */
export interface PlatformFileSystem {
  /** stat() following symlinks; undefined if the path does not resolve. */
  stat(p: string): FileStat | undefined;
  /** Entry names of a directory (unsorted), or an error message. */
  readdir(p: string): { entries: string[] } | { error: string };
  /** File contents, or an error message. `maxBytes` caps the read (larger files → error). */
  readFile(p: string, maxBytes: number): { data: Uint8Array } | { error: string; tooLarge?: boolean };
  /** Canonical path (symlinks resolved); undefined when it does not resolve (missing, loop). */
  realpath(p: string): string | undefined;
}

export type RegistryHive = 'HKLM' | 'HKCU';

/**
 * A registry value. `data`: a string for REG_SZ / REG_EXPAND_SZ (unexpanded), string[] for
 * REG_MULTI_SZ, a number for REG_DWORD / REG_QWORD, the stored bytes for every other type
 * (`REG_0x<hex>` names a type Windows does not define).
 */
export interface RegistryValue {
  readonly name: string;
  readonly type: 'REG_SZ' | 'REG_EXPAND_SZ' | 'REG_MULTI_SZ' | 'REG_DWORD' | 'REG_QWORD' | 'REG_BINARY' | 'REG_NONE' | `REG_${string}`;
  readonly data: string | number | readonly string[] | Uint8Array;
}

/** A read-only view of the Windows registry. Key paths are without the hive, e.g. `SOFTWARE\Khronos\OpenXR\1`. */
export interface RegistryView {
  /** All values of a key in registry order, or undefined when the key does not exist. */
  values(hive: RegistryHive, key: string): readonly RegistryValue[] | undefined;
  /** The names of a key's direct subkeys (device keys under a device class), or undefined when the key does not exist. */
  subkeys?(hive: RegistryHive, key: string): readonly string[] | undefined;
  /** true when the OS is 64-bit (a 32-bit process then reads the WOW6432Node view). */
  readonly os64Bit: boolean;
}

/** VkLayerProperties as a layer library's vkEnumerateInstanceLayerProperties answers it. */
export interface AndroidLayerProperties {
  readonly layerName: string;
  readonly specVersion: number;
  readonly implementationVersion: number;
  readonly description: string;
}

/**
 * What a libVkLayer_*.so says about itself through its introspection functions: its layers, and
 * per layer name the instance extensions vkEnumerateInstanceExtensionProperties(layerName) gives.
 * An error names the file, the symbol (when one was missing or failed) and the reason.
 */
export type AndroidLayerIntrospection =
  | {
      readonly layers: readonly AndroidLayerProperties[];
      readonly extensions: Readonly<Record<string, readonly { readonly extensionName: string; readonly specVersion: number }[]>>;
    }
  | { readonly error: string; readonly symbol?: string };

/** Android specifics the loaders consult. */
export interface AndroidView {
  /** System properties (`getprop`). */
  property(name: string): string | undefined;
  /** APK asset folder listing and reading (AAssetManager), paths relative to the assets root. */
  assets?: {
    list(dir: string): readonly string[] | undefined;
    read(file: string): Uint8Array | undefined;
  };
  /** The application's native library folder (where layers packaged in the APK live). */
  nativeLibraryDir?: string;
  /** Opens a layer library, asks its introspection functions and closes it (Android has no layer manifests). */
  introspectLayerLibrary?(path: string): AndroidLayerIntrospection;
}

export interface Platform {
  readonly os: OsName;
  readonly env: PlatformEnv;
  readonly fs: PlatformFileSystem;
  /** Running with privileges the user who started it does not have (setuid, setgid, capabilities, high integrity). */
  readonly elevated: boolean;
  readonly pointerBits: 32 | 64;
  /** The architecture name used in `active_runtime.<arch>.json` (XR_ARCH_ABI), e.g. 'x86_64'. */
  readonly arch: string;
  readonly executablePath: string;
  /** ':' on POSIX, ';' on Windows. */
  readonly pathSeparator: ':' | ';';
  readonly registry?: RegistryView;
  readonly android?: AndroidView;
}

/** The path functions discovery uses, with one platform's rules (node:path's posix or win32 object). */
export interface PathOps {
  readonly sep: string;
  readonly delimiter: string;
  join(...paths: string[]): string;
  resolve(...paths: string[]): string;
  normalize(p: string): string;
  relative(from: string, to: string): string;
  dirname(p: string): string;
  basename(p: string, suffix?: string): string;
  extname(p: string): string;
  isAbsolute(p: string): boolean;
}

/** Path operations with the platform's own rules (win32 for Windows, posix otherwise). */
export function pathOps(platform: Pick<Platform, 'os'>): PathOps {
  return platform.os === 'windows' ? path.win32 : path.posix;
}

/** The XR_ARCH_ABI / Debian multiarch style name for a Node `process.arch`. */
export function archAbiName(nodeArch: string, pointerBits: 32 | 64): string {
  switch (nodeArch) {
    case 'x64':
      return pointerBits === 32 ? 'x32' : 'x86_64';
    case 'ia32':
      return 'i686';
    case 'arm64':
      return 'aarch64';
    case 'arm':
      return 'armv7a-vfp';
    case 'ppc64':
      return 'ppc64el';
    case 'riscv64':
      return 'riscv64';
    case 's390x':
      return 's390x';
    case 'mips':
      return 'mips';
    case 'mipsel':
      return 'mips';
    case 'loong64':
      return 'loongarch64';
    default:
      return nodeArch;
  }
}

/** An env view over a plain map, with secure reads hidden when elevated. */
export function envFromMap(vars: Readonly<Record<string, string | undefined>>, secureHidden: boolean): PlatformEnv {
  const get = (name: string): string | undefined => {
    return Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
  };
  return {
    get,
    getSecure: (name) => (secureHidden ? undefined : get(name)),
  };
}
