// The native surface of the Vulkan core (native/napi/vulkan.cc), as the TypeScript classes see
// it. Internal: applications use lib/vulkan/api.
import type { AndroidLayerIntrospection } from '../core/platform/platform.js';
import { loadNativeAddon } from '../native.js';

/** The plan as the native side takes it (flattened from a VulkanInstancePlan by api/native-plan.ts). */
export interface NativeVulkanPlan {
  readonly drivers: readonly {
    readonly manifestPath: string;
    readonly libraryPath: string;
    readonly apiVersion: number;
    readonly isPortabilityDriver: boolean;
  }[];
  /** Nearest the application first. */
  readonly layers: readonly {
    readonly name: string;
    readonly manifestPath: string;
    readonly libraryPath: string;
    readonly negotiateSymbol: string;
    readonly getInstanceProcAddrSymbol: string;
    readonly getDeviceProcAddrSymbol: string;
    readonly instanceExtensions: readonly string[];
    readonly kind: 'implicit' | 'explicit';
    readonly apiVersion: number;
    readonly implementationVersion: number;
    /** VK-CH-5: the exported interceptors of an implicit layer (manifest pre_instance_functions). */
    readonly preInstanceFunctions: {
      readonly vkEnumerateInstanceExtensionProperties?: string;
      readonly vkEnumerateInstanceLayerProperties?: string;
      readonly vkEnumerateInstanceVersion?: string;
    };
  }[];
  readonly deviceFilters: {
    readonly deviceSelect?: { readonly vendorId: number; readonly deviceId: number };
    readonly deviceIdRanges?: readonly (readonly [number, number])[];
    readonly vendorIdRanges?: readonly (readonly [number, number])[];
    readonly driverIdRanges?: readonly (readonly [number, number])[];
    readonly disableSort?: true;
  };
  readonly disableInstanceExtensionFilter: boolean;
  /** The registry's instance extensions: what the loader knows (drivers' others are filtered out). */
  readonly knownInstanceExtensions: readonly string[];
}

export interface NativeVulkanCreateInfo {
  readonly applicationName: string;
  readonly applicationVersion?: number;
  readonly engineName?: string;
  readonly engineVersion?: number;
  readonly apiVersion?: number;
  readonly flags?: number;
  readonly enabledExtensionNames?: readonly string[];
  /** Chain a VK_EXT_debug_utils messenger into VkInstanceCreateInfo.pNext; its messages are read with takeDebugMessages(). */
  readonly collectCreateMessages?: boolean;
}

/** A VK_EXT_debug_utils message (VkDebugUtilsMessengerCallbackDataEXT, flattened). */
export interface NativeVulkanMessage {
  readonly severity: number;
  readonly types: number;
  readonly messageIdName: string;
  readonly message: string;
}

export interface NativeVulkanPhysicalDevice {
  readonly handle: bigint;
  readonly properties: {
    readonly deviceName: string;
    readonly vendorID: number;
    readonly deviceID: number;
    readonly deviceType: number;
    readonly apiVersion: number;
    readonly driverVersion: number;
  };
  readonly queueFamilies: readonly { readonly queueFlags: number; readonly queueCount: number }[];
}

export interface NativeVulkanInstance {
  enumeratePhysicalDevices(): NativeVulkanPhysicalDevice[];
  enumeratePhysicalDeviceGroups(): { readonly physicalDevices: readonly bigint[]; readonly subsetAllocation: boolean }[];
  getInstanceProcAddr(name: string): bigint;
  destroy(): void;
  startDebugMessenger(): void;
  takeDebugMessages(): NativeVulkanMessage[];
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  readonly layerNames: string[];
}

export interface NativeVulkanDeviceCreateInfo {
  readonly queueCreateInfos: readonly { readonly queueFamilyIndex: number; readonly queuePriorities: readonly number[] }[];
  readonly enabledExtensionNames?: readonly string[];
}

export interface NativeVulkanDevice {
  getDeviceProcAddr(name: string): bigint;
  getQueue(family: number, index: number): bigint;
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
}

export interface NativeVulkanAddon {
  readonly VulkanInstance: {
    new (plan: NativeVulkanPlan, createInfo: NativeVulkanCreateInfo): NativeVulkanInstance;
    /** Adopts a VkInstance native code created through the exported vkCreateInstance (an OpenXR runtime's xrCreateVulkanInstanceKHR). */
    new (handle: bigint): NativeVulkanInstance;
  };
  readonly VulkanDevice: new (
    instance: NativeVulkanInstance,
    physicalDevice: bigint,
    /** A create info, or a VkDevice native code created on the instance (adopted). */
    createInfoOrHandle: NativeVulkanDeviceCreateInfo | bigint,
  ) => NativeVulkanDevice;
  /** The instance extensions available with the plan's drivers, filtered, plus the loader's own. */
  vulkanInstanceExtensions(plan: NativeVulkanPlan): string[];
  /** A pre-instance function through the implicit layers' interceptors (VK-CH-5). */
  vulkanPreInstance(plan: NativeVulkanPlan, command: 'vkEnumerateInstanceVersion'): number;
  vulkanPreInstance(plan: NativeVulkanPlan, command: 'vkEnumerateInstanceExtensionProperties' | 'vkEnumerateInstanceLayerProperties'): string[];
  /** Publishes the plan the exported vkCreateInstance / vkEnumerateInstance* use for native callers. */
  vulkanPublishPlan(plan: NativeVulkanPlan): void;
  /** The addon's exported vkGetInstanceProcAddr (0n: NULL), as native code calls it. */
  vulkanGetInstanceProcAddr(instance: bigint, name: string): bigint;
  /** Which libvulkan.so.1 the process holds (native/vulkan/process_loader.h). */
  vulkanProcessLoader(): { kind: 'none' | 'this-package' | 'other'; path: string };
  /** Loads and binds this package's process loader library; throws KL_VULKAN_ERROR with `library` when refused. */
  vulkanProvideProcessLoader(libraryPath: string): { kind: 'none' | 'this-package' | 'other'; path: string };
  /** VK-LD-2 (Android): a layer library's own description, from its introspection functions. */
  vulkanIntrospectLayerLibrary(path: string): AndroidLayerIntrospection;
}

export function loadVulkanAddon(): NativeVulkanAddon {
  return loadNativeAddon() as unknown as NativeVulkanAddon;
}
