// The Khronos OpenXR loaders the differential suites compare with: Debian 12's libopenxr-loader1
// 1.0.20 (the system's) and the current one, 1.1.61, built with its api_dump and core_validation
// layers from Debian's source package by scripts/build-khronos-openxr-loader.sh (.ci/run builds it).
// test/native/xr_enumerate links libopenxr_loader.so.1 by its soname; LD_LIBRARY_PATH chooses which.
import path from 'node:path';
import { oracleDeclaredAbsent } from './khronos-vulkan-loaders.js';
import { repoRoot, testNativeDir } from './paths.js';
import { findFirst, missingSystemComponent } from './system.js';

export type KhronosOpenXrVersion = '1.0.20' | '1.1.61';

export interface KhronosOpenXrLoader {
  readonly version: KhronosOpenXrVersion;
  /** The libopenxr_loader.so.1 (undefined when absent). */
  readonly library: string | undefined;
  /** Environment that makes a program linked with libopenxr_loader.so.1 load this one. */
  readonly env: Readonly<Record<string, string>>;
  /** Why it cannot be used here (null: it can). */
  readonly missing: string | null;
}

const systemCandidates = ['/usr/lib/x86_64-linux-gnu/libopenxr_loader.so.1', '/usr/lib/aarch64-linux-gnu/libopenxr_loader.so.1'];
const candidates1_1_61 = [process.env.KHRONOS_LOADER_XR_KHRONOS_1_1_61 ?? path.join(repoRoot, 'build/khronos-openxr-loader-1.1.61/lib/libopenxr_loader.so.1')];

/** Both loaders, the Debian 12 one first; a missing one skips (or fails under required), one declared absent is left out. */
export function khronosOpenXrLoaders(): KhronosOpenXrLoader[] {
  const loaders: KhronosOpenXrLoader[] = [
    { version: '1.0.20', library: findFirst(systemCandidates), env: {}, missing: missingSystemComponent({ 'Debian libopenxr-loader1 1.0.20': systemCandidates }) },
  ];
  if (oracleDeclaredAbsent('openxr-1.1.61', 'Khronos OpenXR loader 1.1.61')) return loaders;
  const library = findFirst(candidates1_1_61);
  loaders.push({
    version: '1.1.61',
    library,
    env: library === undefined ? {} : { LD_LIBRARY_PATH: path.dirname(library) },
    missing: missingSystemComponent({ 'Khronos OpenXR loader 1.1.61 (scripts/build-khronos-openxr-loader.sh, or KHRONOS_LOADER_XR_KHRONOS_1_1_61)': candidates1_1_61 }),
  });
  return loaders;
}

/**
 * The OpenXR discovery probes under test/native that the differential tests run each Khronos loader
 * through: xr_enumerate (linked with libopenxr_loader.so.1 by its soname), the probe runtime and the
 * probe layer.
 */
export const xrProbes = {
  enumerate: path.join(testNativeDir, 'xr_enumerate/xr_enumerate'),
  runtime: path.join(testNativeDir, 'discovery_probe_runtime/libdiscovery_probe_runtime.so'),
  layer: path.join(testNativeDir, 'discovery_probe_layer/libdiscovery_probe_layer.so'),
} as const;

/** Why the probes cannot be used here (null: they can). */
export function missingXrProbes(): string | null {
  return missingSystemComponent({
    'test/native xr_enumerate (needs libopenxr-dev)': [xrProbes.enumerate],
    'test/native discovery_probe_runtime': [xrProbes.runtime],
    'test/native discovery_probe_layer': [xrProbes.layer],
  });
}
