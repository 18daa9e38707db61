// The pass-through Vulkan layer that ships with the package (native/bundled/layers/vulkan_passthrough_layer.cc):
// copies of it, each under its own name and manifest, stacked to measure what a layer costs per
// device call, for this package's loader and the Khronos loader alike.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedLibraryFileName } from '../../core/shared-library-name.js';
import { nativeArtifactDir } from '../../core/native/load.js';
import { invalidArgument, libraryMissing } from '../../core/errors.js';

export const VULKAN_PASSTHROUGH_LAYER_LIBRARY = sharedLibraryFileName('khronos_vk_layer_passthrough');
export const VULKAN_PASSTHROUGH_LAYER_PREFIX = 'VK_LAYER_KHRONOSLOADER_passthrough';

export interface VulkanPassthroughLayerSet {
  /** The folder holding the copies (one subfolder each). */
  readonly folder: string;
  /**
   * One folder of an explicit-layer manifest per copy, in `names` order: VK_LAYER_PATH in this order
   * gives every loader the same discovery order, so a loader that orders layers enabled by the
   * environment by discovery (the Khronos loader 1.3.239) builds the chain VK_INSTANCE_LAYERS names.
   */
  readonly folders: readonly string[];
  /** Layer names, nearest the application first: `${VULKAN_PASSTHROUGH_LAYER_PREFIX}_1` ... `_N`. */
  readonly names: readonly string[];
  /** Removes the folder (the libraries must no longer be loaded by then). */
  dispose(): void;
}

export function vulkanPassthroughLayerLibrary(): string {
  const library = path.join(nativeArtifactDir(), VULKAN_PASSTHROUGH_LAYER_LIBRARY);
  if (!existsSync(library)) throw libraryMissing(library, 'the bundled pass-through Vulkan layer');
  return library;
}

/**
 * Writes `count` pass-through Vulkan layers under `folder` (a new temporary folder by default), each
 * a separate copy of the library (one file opened twice is one library to the dynamic linker) in a
 * folder of its own.
 */
export function createVulkanPassthroughLayers(count: number, folder?: string): VulkanPassthroughLayerSet {
  if (!Number.isInteger(count) || count < 0) throw invalidArgument('count', 'a whole number >= 0 (the number of pass-through layers)', count);
  const source = vulkanPassthroughLayerLibrary();
  const target = folder ?? mkdtempSync(path.join(os.tmpdir(), 'khronos-loader-vk-layers-'));
  mkdirSync(target, { recursive: true });
  const names: string[] = [];
  const folders: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `${VULKAN_PASSTHROUGH_LAYER_PREFIX}_${i}`;
    const library = sharedLibraryFileName(`khronos_vk_layer_passthrough_${i}`);
    const dir = path.join(target, String(i));
    mkdirSync(dir, { recursive: true });
    copyFileSync(source, path.join(dir, library));
    const manifest = {
      file_format_version: '1.1.2',
      layer: {
        name,
        type: 'GLOBAL',
        library_path: `./${library}`,
        api_version: '1.3.239',
        implementation_version: '1',
        description: `khronos-loader pass-through Vulkan layer ${i}: wraps the benchmarked device commands and forwards them unchanged`,
      },
    };
    writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
    names.push(name);
    folders.push(dir);
  }
  return { folder: target, folders, names, dispose: () => rmSync(target, { recursive: true, force: true }) };
}
