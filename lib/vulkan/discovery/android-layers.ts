// VK-LD-2 (Android profile): Android has no layer manifests. The loader looks in the application's
// native library folder and, on debuggable devices (ro.debuggable set and not 0), in
// /data/local/debug/vulkan, for libraries named libVkLayer_*.so; it learns each layer's name,
// versions and extensions from the library's introspection functions (vkEnumerateInstanceLayerProperties
// and friends), which only the native side can call: the platform's introspectLayerLibrary does
// it. Every layer found so is explicit: on Android the application enables layers (the spec's
// "debuggable applications can enumerate and enable any layer of that folder").
import { compareNames } from '../../core/folder-listing.js';
import { formatVulkanVersion, parseVulkanVersion } from './api-version.js';
import type { VulkanDiscoveryContext } from './context.js';
import type { VulkanLayerManifest } from './layer-manifest.js';
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

/** What a library's introspection gave, as the manifest a layer on another platform would have. */
export interface AndroidIntrospectedLayer {
  readonly library: AndroidLayerLibrary;
  readonly manifest: VulkanLayerManifest;
}

/**
 * Asks each candidate library for its layers (in the libraries' order, each library's
 * layers in the order it gives them). A library whose introspection fails is a diagnostic naming
 * the file, the symbol and the reason; the others still count.
 */
export function androidIntrospectedLayers(ctx: VulkanDiscoveryContext, libraries: readonly AndroidLayerLibrary[]): AndroidIntrospectedLayer[] {
  const introspect = ctx.platform.android?.introspectLayerLibrary;
  if (!introspect) {
    if (libraries.length) ctx.log('warn', `Android: ${libraries.length} layer librar${libraries.length === 1 ? 'y' : 'ies'} found, but the platform cannot introspect them; they are not listed`, undefined, 'layer');
    return [];
  }
  const out: AndroidIntrospectedLayer[] = [];
  for (const library of libraries) {
    const got = introspect.call(ctx.platform.android, library.path);
    if ('error' in got) {
      ctx.report({ severity: 'warning', file: library.path, ...(got.symbol ? { field: got.symbol } : {}), reason: `layer library introspection failed: ${got.error}; its layers are not available` });
      continue;
    }
    for (const p of got.layers) {
      const api_version = formatVulkanVersion(p.specVersion);
      out.push({
        library,
        manifest: {
          file_format_version: '1.0.0',
          fileFormat: parseVulkanVersion('1.0.0'),
          name: p.layerName,
          type: 'INSTANCE',
          library_path: library.path,
          description: p.description,
          api_version,
          apiVersion: parseVulkanVersion(api_version),
          implementation_version: p.implementationVersion >>> 0,
          // No manifest to rename anything: the interface symbols keep their default names.
          functions: {},
          instance_extensions: got.extensions[p.layerName] ?? [],
          device_extensions: [],
          pre_instance_functions: {},
        },
      });
    }
  }
  return out;
}
