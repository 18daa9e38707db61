// The Khronos Vulkan loaders the differential suites compare with: Debian 12's libvulkan1 1.3.239
// (the system's), 1.4.309.0 built from Debian trixie's source package by
// scripts/build-khronos-vulkan-loader.sh, and the current release, 1.4.359, built from the Khronos
// release tags by scripts/build-khronos-vulkan-loader-release.sh (.ci/run builds both).
import path from 'node:path';
import { repoRoot } from './paths.js';
import { findFirst, missingSystemComponent } from './system.js';

export type KhronosVulkanVersion = '1.3.239' | '1.4.309' | '1.4.359';

export interface KhronosVulkanLoader {
  readonly version: KhronosVulkanVersion;
  /** The libvulkan.so.1 to dlopen (undefined when absent). */
  readonly library: string | undefined;
  /** Why it cannot be used here (null: it can). */
  readonly missing: string | null;
}

/**
 * An oracle CI could not build for want of its sources (no network: .ci/run lists it in
 * KHRONOS_LOADER_ORACLES_ABSENT, space-separated, e.g. "vulkan-1.4.359 openxr-1.1.61"). It is left
 * out of the comparison and said so on stderr, neither skipped (which CI counts as a failure) nor
 * silently dropped. Returns true when `id` is absent.
 */
export function oracleDeclaredAbsent(id: string, what: string): boolean {
  const absent = (process.env.KHRONOS_LOADER_ORACLES_ABSENT ?? '').split(/\s+/).includes(id);
  if (absent) process.stderr.write(`[oracle absent] ${what}: KHRONOS_LOADER_ORACLES_ABSENT names ${id}; this differential runs without it\n`);
  return absent;
}

/** Versions from 1.4.309 on share the behaviour our loader follows (docs/conformance.md). */
export const isCurrentKhronosVulkan = (version: KhronosVulkanVersion): boolean => version !== '1.3.239';

const systemCandidates = ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/usr/lib/aarch64-linux-gnu/libvulkan.so.1'];
const candidates1_4_309 = [process.env.KHRONOS_LOADER_VK_KHRONOS_CURRENT ?? path.join(repoRoot, 'build/khronos-vulkan-loader-1.4.309/lib/libvulkan.so.1')];
const candidates1_4_359 = [process.env.KHRONOS_LOADER_VK_KHRONOS_1_4_359 ?? path.join(repoRoot, 'build/khronos-vulkan-loader-1.4.359/lib/libvulkan.so.1')];

/**
 * The three loaders, oldest first; a missing one skips (or fails under required) with the reason,
 * one declared absent (oracleDeclaredAbsent) is left out.
 */
export function khronosVulkanLoaders(): KhronosVulkanLoader[] {
  const loaders: KhronosVulkanLoader[] = [
    { version: '1.3.239', library: findFirst(systemCandidates), missing: missingSystemComponent({ 'Debian libvulkan1 1.3.239': systemCandidates }) },
    {
      version: '1.4.309',
      library: findFirst(candidates1_4_309),
      missing: missingSystemComponent({ 'Khronos Vulkan loader 1.4.309 (scripts/build-khronos-vulkan-loader.sh, or KHRONOS_LOADER_VK_KHRONOS_CURRENT)': candidates1_4_309 }),
    },
  ];
  if (oracleDeclaredAbsent('vulkan-1.4.359', 'Khronos Vulkan loader 1.4.359')) return loaders;
  loaders.push({
    version: '1.4.359',
    library: findFirst(candidates1_4_359),
    missing: missingSystemComponent({
      'Khronos Vulkan loader 1.4.359 (scripts/build-khronos-vulkan-loader-release.sh, or KHRONOS_LOADER_VK_KHRONOS_1_4_359)': candidates1_4_359,
    }),
  });
  return loaders;
}
