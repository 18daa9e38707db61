// A VulkanInstancePlan (discovery's output) flattened into what the native core reads.
import { VK_EXTENSIONS } from '../../generated/vulkan.js';
import type { VulkanInstancePlan } from '../plan/plan.js';
import type { NativeVulkanPlan } from './addon.js';

const knownInstanceExtensions: readonly string[] = Object.entries(VK_EXTENSIONS)
  .filter(([, e]) => e.type === 'instance')
  .map(([name]) => name);

export function toNativeVulkanPlan(plan: VulkanInstancePlan): NativeVulkanPlan {
  return {
    drivers: plan.drivers.map((d) => ({
      manifestPath: d.manifestPath,
      libraryPath: d.libraryPath,
      apiVersion: d.apiVersion,
      isPortabilityDriver: d.isPortabilityDriver,
    })),
    layers: plan.layers.map((l) => ({
      name: l.name,
      manifestPath: l.manifestPath,
      libraryPath: l.libraryPath,
      negotiateSymbol: l.symbols.negotiateLoaderLayerInterfaceVersion,
      getInstanceProcAddrSymbol: l.symbols.getInstanceProcAddr,
      getDeviceProcAddrSymbol: l.symbols.getDeviceProcAddr,
      instanceExtensions: l.instanceExtensionNames ?? [],
      kind: l.kind,
      apiVersion: l.apiVersion,
      implementationVersion: l.implementationVersion,
      preInstanceFunctions: l.preInstanceFunctions,
    })),
    deviceFilters: plan.deviceFilters,
    disableInstanceExtensionFilter: plan.disableInstanceExtensionFilter,
    knownInstanceExtensions,
  };
}
