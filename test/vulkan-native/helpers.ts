// Plans built by hand for the native Vulkan core's tests (discovery is tested on its own).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PlannedVulkanDriver, PlannedVulkanLayer, VulkanInstancePlan } from '../../lib/vulkan/plan/plan.js';
import { testNativeDir } from '../helpers/paths.js';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { flushLoaderLog } from '../../lib/core/native/load.js';
export { owningLibrary } from '../helpers/maps.js';

export const LAVAPIPE_MANIFEST = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
export const VALIDATION_MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
export const DEVICE_SELECT_MANIFEST = '/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json';

/** A test driver or layer library built from test/native. */
export function testLibrary(folder: string, name: string): string {
  return path.join(testNativeDir, folder, `lib${name}.so`);
}

export function driver(libraryPath: string, extra: Partial<PlannedVulkanDriver> = {}): PlannedVulkanDriver {
  return { manifestPath: '', libraryPath, apiVersion: 0, isPortabilityDriver: false, reason: 'test', ...extra };
}

export function layer(name: string, libraryPath: string, extra: Partial<PlannedVulkanLayer> = {}): PlannedVulkanLayer {
  return {
    name,
    kind: 'explicit',
    origin: 'application',
    manifestPath: '',
    libraryPath,
    symbols: {
      negotiateLoaderLayerInterfaceVersion: 'vkNegotiateLoaderLayerInterfaceVersion',
      getInstanceProcAddr: 'vkGetInstanceProcAddr',
      getDeviceProcAddr: 'vkGetDeviceProcAddr',
    },
    preInstanceFunctions: {},
    apiVersion: 0,
    implementationVersion: 1,
    reason: 'test',
    ...extra,
  };
}

/** A driver from a real ICD manifest (library_path resolved beside the manifest when relative). */
export function driverFromManifest(manifestPath: string): PlannedVulkanDriver {
  const json = JSON.parse(readFileSync(manifestPath, 'utf8')) as { ICD: { library_path: string; is_portability_driver?: boolean } };
  const lib = json.ICD.library_path;
  const libraryPath = lib.includes('/') && !path.isAbsolute(lib) ? path.resolve(path.dirname(manifestPath), lib) : lib;
  return driver(libraryPath, { manifestPath, isPortabilityDriver: json.ICD.is_portability_driver === true });
}

/** A layer from a real layer manifest. */
export function layerFromManifest(manifestPath: string, kind: 'implicit' | 'explicit'): PlannedVulkanLayer {
  const json = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    layer: { name: string; library_path: string; functions?: Record<string, string>; instance_extensions?: { name: string }[] };
  };
  const l = json.layer;
  const libraryPath = l.library_path.includes('/') && !path.isAbsolute(l.library_path) ? path.resolve(path.dirname(manifestPath), l.library_path) : l.library_path;
  return layer(l.name, libraryPath, {
    kind,
    manifestPath,
    symbols: {
      negotiateLoaderLayerInterfaceVersion: l.functions?.vkNegotiateLoaderLayerInterfaceVersion ?? 'vkNegotiateLoaderLayerInterfaceVersion',
      getInstanceProcAddr: l.functions?.vkGetInstanceProcAddr ?? 'vkGetInstanceProcAddr',
      getDeviceProcAddr: l.functions?.vkGetDeviceProcAddr ?? 'vkGetDeviceProcAddr',
    },
    instanceExtensionNames: (l.instance_extensions ?? []).map((e) => e.name),
  });
}

export function plan(drivers: readonly PlannedVulkanDriver[], layers: readonly PlannedVulkanLayer[] = [], extra: Partial<VulkanInstancePlan> = {}): VulkanInstancePlan {
  return { drivers, layers, enabledExtensionNames: [], deviceFilters: {}, disableInstanceExtensionFilter: false, decisions: [], ...extra };
}

/** The shared objects of this process whose path contains `fragment` (from /proc/self/maps). */
export function mappedLibraries(fragment: string): string[] {
  const maps = readFileSync('/proc/self/maps', 'utf8');
  return [...new Set(maps.split('\n').filter((l) => l.includes(fragment)).map((l) => l.slice(l.indexOf('/'))))];
}

/** Collects the loader's log records until `stop()`; `settle()` waits until every native record emitted so far has arrived. */
export function captureLog(): { records: LogRecord[]; settle: () => Promise<void>; stop: () => void } {
  const records: LogRecord[] = [];
  const listener = (r: LogRecord): void => {
    records.push(r);
  };
  loaderLog.on('record', listener);
  return {
    records,
    settle: flushLoaderLog,
    stop: () => loaderLog.off('record', listener),
  };
}

export const VK_API_VERSION_1_0 = 1 << 22;
export const VK_API_VERSION_1_3 = (1 << 22) | (3 << 12);
