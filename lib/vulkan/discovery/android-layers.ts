// VK-LD-2 (Android profile): Android has no layer manifests. The loader looks in the application's
// native library folder and, on debuggable devices (ro.debuggable set and not 0), in
// /data/local/debug/vulkan, for libraries named libVkLayer_*.so; it learns each layer's name,
// versions and extensions from the library's introspection functions (vkEnumerateInstanceLayerProperties
// and friends), which only the native side can call. Discovery lists the candidate libraries.
import { compareNames } from '../../core/folder-listing.js';
import type { VulkanDiscoveryContext } from './context.js';
import { inFolder } from './search-folders.js';

export const ANDROID_DEBUG_LAYER_FOLDER = '/data/local/debug/vulkan';

export interface AndroidLayerLibrary {
  readonly path: string;
  readonly source: 'android-app' | 'android-debug';
}

export function androidLayerFolders(ctx: VulkanDiscoveryContext): AndroidLayerLibrary[] {
  const android = ctx.platform.android;
  if (!android) return [];
  const out: AndroidLayerLibrary[] = [];
  if (android.nativeLibraryDir) out.push({ path: android.nativeLibraryDir, source: 'android-app' });
  const debuggable = android.property('ro.debuggable');
  if (debuggable !== undefined && debuggable !== '' && debuggable !== '0') out.push({ path: ANDROID_DEBUG_LAYER_FOLDER, source: 'android-debug' });
  return out;
}

/** The libVkLayer_*.so files of those folders, each folder sorted by name. */
export function androidLayerLibraries(ctx: VulkanDiscoveryContext): AndroidLayerLibrary[] {
  const out: AndroidLayerLibrary[] = [];
  for (const folder of androidLayerFolders(ctx)) {
    const list = ctx.platform.fs.readdir(folder.path);
    if ('error' in list) continue;
    for (const name of list.entries.filter((n) => n.startsWith('libVkLayer_') && n.endsWith('.so')).sort(compareNames)) {
      out.push({ path: inFolder(ctx, folder.path, name), source: folder.source });
    }
  }
  return out;
}
