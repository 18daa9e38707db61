// The Khronos Vulkan loaders the differential suites compare with: Debian 12's libvulkan1 1.3.239
// (the system's) and the current loader, 1.4.309.0, built from Debian trixie's source package by
// scripts/build-khronos-vulkan-loader.sh (.ci/run builds it).
import path from 'node:path';
import { repoRoot } from './paths.js';
import { findFirst, missingSystemComponent } from './system.js';

export type KhronosVulkanVersion = '1.3.239' | '1.4.309';

export interface KhronosVulkanLoader {
  readonly version: KhronosVulkanVersion;
  /** The libvulkan.so.1 to dlopen (undefined when absent). */
  readonly library: string | undefined;
  /** Why it cannot be used here (null: it can). */
  readonly missing: string | null;
}

const systemCandidates = ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/usr/lib/aarch64-linux-gnu/libvulkan.so.1'];
const currentCandidates = [process.env.KHRONOS_LOADER_VK_KHRONOS_CURRENT ?? path.join(repoRoot, 'build/khronos-vulkan-loader-1.4.309/lib/libvulkan.so.1')];

/** Both loaders, the Debian 12 one first; a missing one skips (or fails under required) with the reason. */
export function khronosVulkanLoaders(): KhronosVulkanLoader[] {
  return [
    { version: '1.3.239', library: findFirst(systemCandidates), missing: missingSystemComponent({ 'Debian libvulkan1 1.3.239': systemCandidates }) },
    {
      version: '1.4.309',
      library: findFirst(currentCandidates),
      missing: missingSystemComponent({ 'Khronos Vulkan loader 1.4.309 (scripts/build-khronos-vulkan-loader.sh, or KHRONOS_LOADER_VK_KHRONOS_CURRENT)': currentCandidates }),
    },
  ];
}
