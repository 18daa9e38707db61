// The package entry. Importing it loads the native addon (prebuilt, or the local build in a
// source checkout) and connects its log records to `loaderLog`.
import { loadNativeAddon } from './core/native/load.js';
export { flushLoaderLog } from './core/native/load.js';

const addon = loadNativeAddon();

export * as openxr from './openxr/index.js';
export * as vulkan from './vulkan/index.js';
export { PrebuildMissingError, type NativeTarget } from './core/native/binary.js';
export { loaderLog, type LogLevel, type LogRecord } from './core/log.js';
export { HandleDestroyedError, InternalError, InvalidArgumentError, InvalidStateError, LibraryError, PACKAGE_ERROR_CODES, UnavailableError, type PackageErrorCode } from './core/errors.js';
export { examplePath } from './core/examples.js';
export { doctor, doctorVulkan, type DoctorOptions, type VulkanDoctorOptions } from './tools/doctor/index.js';
export type { DoctorReport } from './tools/doctor/openxr/report.js';
export type { VulkanDoctorReport } from './tools/doctor/vulkan/report.js';

export interface NativeInfo {
  /** The N-API version the addon was built for (one binary serves every Node >= 20). */
  readonly napiVersion: number;
  /** How many shared libraries (runtimes, layers, drivers) the loader holds open right now. */
  readonly openLibraries: number;
}

export function nativeInfo(): NativeInfo {
  return { napiVersion: addon.napiVersion, openLibraries: addon.openLibraryCount() };
}
