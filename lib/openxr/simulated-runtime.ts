// The simulated OpenXR runtime that ships with the package (native/bundled/simxr/): where its manifest is,
// and what only it answers (the records of the eye images and haptic feedback it received).
//
// The runtime library sits beside the addon binary node-gyp-build picks: build/Release in a
// source checkout (where CMake also writes khronos_simxr.json beside it), prebuilds/<platform>-<arch>
// in an installed package (scripts/prebuild.ts copies only the libraries there). When no manifest sits
// beside the library, one is written into a cache folder with the library's absolute path, so
// the answer works for read-only installs too.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedLibraryFileName } from '../core/shared-library-name.js';
import { loadNativeAddon, nativeArtifactDir } from '../core/native/load.js';
import { callNative, instanceState, nativeSessionOf } from './api/handles.js';
import type { Session } from './api/session.js';
import type { XrTime } from './api/types.js';
import type { NativeSession } from './native/addon.js';
import { InvalidArgumentError, libraryMissing } from '../core/errors.js';

export const SIMULATED_RUNTIME_LIBRARY = sharedLibraryFileName('khronos_simxr');
export const SIMULATED_RUNTIME_MANIFEST = 'khronos_simxr.json';
export const SIMULATED_RUNTIME_NAME = 'khronos-loader simulated runtime (simxr)';

export interface SimulatedRuntimeOptions {
  /** Where the runtime library is (default: beside the addon binary). */
  readonly libraryDir?: string;
  /** Where to write a manifest when none sits beside the library (default: the user's cache). */
  readonly cacheDir?: string;
}

function defaultCacheDir(): string {
  if (process.platform === 'win32' && process.env.LOCALAPPDATA !== undefined && path.isAbsolute(process.env.LOCALAPPDATA)) {
    return path.join(process.env.LOCALAPPDATA, 'khronos-loader');
  }
  const base = process.env.XDG_CACHE_HOME !== undefined && path.isAbsolute(process.env.XDG_CACHE_HOME)
    ? process.env.XDG_CACHE_HOME
    : path.join(os.homedir(), '.cache');
  return path.join(base, 'khronos-loader');
}

/** True when `manifestPath` is a runtime manifest whose library_path resolves to `library`. */
function manifestPointsAt(manifestPath: string, library: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { runtime?: { library_path?: unknown } };
    const libraryPath = manifest.runtime?.library_path;
    if (typeof libraryPath !== 'string') return false;
    return path.resolve(path.dirname(manifestPath), libraryPath) === library;
  } catch {
    return false;
  }
}

/**
 * The path of the simulated runtime's manifest, ready for `XR_RUNTIME_JSON`. Throws when the
 * runtime library is not built.
 */
export function simulatedRuntime(options: SimulatedRuntimeOptions = {}): string {
  const library = path.resolve(options.libraryDir ?? nativeArtifactDir(), SIMULATED_RUNTIME_LIBRARY);
  if (!existsSync(library)) {
    throw libraryMissing(library, 'the simulated OpenXR runtime');
  }
  const beside = path.join(path.dirname(library), SIMULATED_RUNTIME_MANIFEST);
  if (manifestPointsAt(beside, library)) return beside;

  // One folder per library location, so two installs never overwrite each other's manifest.
  const key = createHash('sha256').update(library).digest('hex').slice(0, 16);
  const folder = path.join(options.cacheDir ?? defaultCacheDir(), `simxr-${key}`);
  const manifestPath = path.join(folder, SIMULATED_RUNTIME_MANIFEST);
  if (manifestPointsAt(manifestPath, library)) return manifestPath;
  mkdirSync(folder, { recursive: true });
  const manifest = { file_format_version: '1.0.0', runtime: { name: SIMULATED_RUNTIME_NAME, library_path: library } };
  // Written whole then renamed, so a concurrent reader never sees half a file.
  const temporary = `${manifestPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporary, manifestPath);
  return manifestPath;
}

/** The simulated runtime's record of one haptic call reaching one output (native/include/simxr/simxr_haptics.h). */
interface NativeHapticEvent {
  readonly time: bigint;
  readonly source: bigint;
  readonly action: bigint;
  readonly duration: bigint;
  readonly frequency: number;
  readonly amplitude: number;
  readonly stopped: boolean;
}

/** The simulated runtime's record of one submitted eye image's centre texel (native/include/simxr/simxr_readback.h). */
export interface SubmittedPixel {
  readonly frameIndex: number;
  readonly displayTime: bigint;
  readonly viewIndex: number;
  /** The swapchain's VkFormat. */
  readonly format: number;
  /**
   * The texel's 4 bytes as stored (R,G,B,A for R8G8B8A8_*, B,G,R,A for B8G8R8A8_*); a depth
   * texel's depth aspect little-endian (see `depth`), its unused bytes 0.
   */
  readonly bytes: readonly [number, number, number, number];
  /**
   * 'color': the view's image; 'depth': the depth image of the view's XrCompositionLayerDepthInfoKHR
   * (XR_KHR_composition_layer_depth), recorded right after the view's colour record.
   */
  readonly aspect: 'color' | 'depth';
  /** A depth record's value in [0, 1] (decoded from `bytes` by its format); undefined for colour. */
  readonly depth: number | undefined;
  /**
   * The texel's position in the image: the centre of the view's imageRect, or with
   * SIMXR_READBACK_GRID=CxR (set before the instance is created) the centre of one cell of a C × R
   * grid over it (the view's records row by row).
   */
  readonly x: number;
  readonly y: number;
}

/** A depth texel's value from the bytes a buffer copy of its depth aspect stores (little-endian). */
export function depthTexelValue(format: number, bytes: readonly number[]): number {
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = bytes;
  switch (format) {
    case 124: // D16_UNORM
      return (b0 | (b1 << 8)) / 0xffff;
    case 129: // D24_UNORM_S8_UINT: the low 24 bits
      return (b0 | (b1 << 8) | (b2 << 16)) / 0xff_ffff;
    case 126: // D32_SFLOAT
    case 130: // D32_SFLOAT_S8_UINT
      return new DataView(new Uint8Array([b0, b1, b2, b3]).buffer).getFloat32(0, true);
    default:
      throw new InvalidArgumentError(`depthTexelValue: format must be a depth VkFormat (124, 126, 129, 130), got ${format}`, 'format');
  }
}

/** The simulated runtime's record of one haptic call reaching one output (native/include/simxr/simxr_haptics.h). */
export interface HapticEvent {
  /** The session's frame time when the call came. */
  readonly time: XrTime;
  /** The output, e.g. '/user/hand/left/output/haptic'. */
  readonly source: string;
  /** The XrAction handle the call named. */
  readonly action: bigint;
  /** ns as given (-1n: XR_MIN_HAPTIC_DURATION); 0n for a stop. */
  readonly duration: XrTime;
  readonly frequency: number;
  readonly amplitude: number;
  /** true for xrStopHapticFeedback. */
  readonly stopped: boolean;
}

/** The simulated runtime's own functions (XR_SIMXR_*), as the addon exposes them. */
interface NativeSubmittedPixel {
  readonly frameIndex: number;
  readonly displayTime: bigint;
  readonly viewIndex: number;
  readonly format: number;
  readonly bytes: readonly [number, number, number, number];
  /** VkImageAspectFlagBits: 1 colour, 2 depth. */
  readonly aspect: number;
  readonly x: number;
  readonly y: number;
}

interface SimulatedRuntimeAddon {
  openxrDrainSubmittedPixels(session: NativeSession): NativeSubmittedPixel[];
  openxrDrainHapticEvents(session: NativeSession): NativeHapticEvent[];
}

const simulatedRuntimeAddon = (): SimulatedRuntimeAddon => loadNativeAddon() as unknown as SimulatedRuntimeAddon;

/**
 * The simulated runtime's record of the eye images `session` submitted (the centre texel of each
 * view of each submitted projection layer), oldest first, removed from the runtime. Other runtimes
 * throw OpenXrError XR_ERROR_FUNCTION_UNSUPPORTED.
 */
export function drainSubmittedPixels(session: Session): SubmittedPixel[] {
  instanceState(session.instance);
  return callNative(() => simulatedRuntimeAddon().openxrDrainSubmittedPixels(nativeSessionOf(session))).map((p) => {
    const depth = p.aspect === 2;
    return { ...p, aspect: depth ? 'depth' : 'color', depth: depth ? depthTexelValue(p.format, p.bytes) : undefined };
  });
}

/**
 * The simulated runtime's record of the haptic feedback `session` sent (one record per output
 * reached), oldest first, removed from the runtime. Other runtimes throw OpenXrError
 * XR_ERROR_FUNCTION_UNSUPPORTED.
 */
export function drainHapticEvents(session: Session): HapticEvent[] {
  const s = instanceState(session.instance);
  return callNative(() => simulatedRuntimeAddon().openxrDrainHapticEvents(nativeSessionOf(session))).map((e) => ({
    time: e.time,
    source: callNative(() => s.api.openxrPathToString(s.native, e.source)),
    action: e.action,
    duration: e.duration,
    frequency: e.frequency,
    amplitude: e.amplitude,
    stopped: e.stopped,
  }));
}
