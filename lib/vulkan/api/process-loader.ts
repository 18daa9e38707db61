// This package's Vulkan loader as the process's libvulkan.so.1. A runtime that links against
// libvulkan.so.1 (Monado) calls that library's vkGetInstanceProcAddr — for its own compositor and
// with the application's VkInstance — instead of the pfnGetInstanceProcAddr the application gave
// it. With the Khronos loader there, an instance made by this package's loader aborts the
// process. provideProcessVulkanLoader() loads libkhronos_vulkan_process_loader.so (SONAME
// libvulkan.so.1, shipped beside the addon), bound to the addon's exported functions, before the
// runtime is loaded: glibc then gives the runtime that library for its DT_NEEDED libvulkan.so.1,
// and every Vulkan call it makes goes through this package's loader and the published plan.
import path from 'node:path';
import { nativeArtifactDir } from '../../core/native/load.js';
import { VulkanError } from '../errors.js';
import { loadVulkanAddon } from '../native/addon.js';

/** The library's file name (its SONAME is libvulkan.so.1). */
export const PROCESS_VULKAN_LOADER_LIBRARY = 'libkhronos_vulkan_process_loader.so';

/** Which libvulkan.so.1 the process holds. */
export interface ProcessVulkanLoaderState {
  /** 'none': no libvulkan.so.1 loaded; 'this-package': this package's process loader; 'other': another (the Khronos loader, ...). */
  readonly kind: 'none' | 'this-package' | 'other';
  /** The loaded library's file (null for 'none'). */
  readonly path: string | null;
}

export interface ProvideProcessVulkanLoaderOptions {
  /** Where libkhronos_vulkan_process_loader.so is (default: beside the addon binary). */
  readonly libraryDir?: string;
}

/** The process loader could not be provided; `library` is the library in the way (or the one that failed to load). */
export class VulkanProcessLoaderError extends VulkanError {
  readonly library: string | null;
  constructor(library: string | null, message: string) {
    super('VK_ERROR_INITIALIZATION_FAILED', message);
    this.name = 'VulkanProcessLoaderError';
    this.library = library;
  }
}

/** Which libvulkan.so.1 this process has loaded, if any (dlopen with RTLD_NOLOAD: nothing is loaded by asking). */
export function processVulkanLoader(): ProcessVulkanLoaderState {
  if (process.platform !== 'linux') return { kind: 'none', path: null };
  const state = loadVulkanAddon().vulkanProcessLoader();
  return { kind: state.kind, path: state.kind === 'none' ? null : state.path };
}

/**
 * Makes this package's Vulkan loader the process's libvulkan.so.1. Call it before creating the
 * OpenXR instance of a runtime that links against libvulkan.so.1 (and publish the Vulkan plan
 * before that runtime makes Vulkan calls). Idempotent. Throws VulkanProcessLoaderError naming the
 * library when another libvulkan.so.1 is already loaded (the runtime would get that one), and on
 * platforms other than Linux.
 */
export function provideProcessVulkanLoader(options: ProvideProcessVulkanLoaderOptions = {}): ProcessVulkanLoaderState {
  if (process.platform !== 'linux') {
    throw new VulkanProcessLoaderError(null, `provideProcessVulkanLoader: only on Linux (glibc), not on ${process.platform}`);
  }
  const library = path.resolve(options.libraryDir ?? nativeArtifactDir(), PROCESS_VULKAN_LOADER_LIBRARY);
  try {
    const state = loadVulkanAddon().vulkanProvideProcessLoader(library);
    return { kind: state.kind, path: state.path };
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'KL_VULKAN_ERROR') {
      const inTheWay = (error as { library?: unknown }).library;
      throw new VulkanProcessLoaderError(typeof inTheWay === 'string' && inTheWay !== '' ? inTheWay : null, error.message);
    }
    throw error;
  }
}
