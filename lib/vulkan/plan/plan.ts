// The Vulkan plan handed to the native side: plain data saying which drivers and layers to load,
// in what order, with which symbols, and why. Discovery and policy (TypeScript) make it; the native
// core (dlopen, negotiation, chains) only carries it out and never reads manifests or the
// environment for policy.

export type VulkanLayerKind = 'implicit' | 'explicit';

/** Why a layer is in the chain. */
export type VulkanLayerOrigin =
  | 'implicit'
  | 'VK_LOADER_LAYERS_ENABLE'
  | 'VK_INSTANCE_LAYERS'
  | 'settings-file'
  | 'application'
  /** createLoader({ layers: { enable } }). */
  | 'policy'
  /** A component of an enabled meta layer (the meta layer's name follows the colon). */
  | `meta:${string}`;

/** The symbols the native side looks up in a layer library, already resolved from `functions`. */
export interface VulkanLayerSymbols {
  /** Interface 2+: vkNegotiateLoaderLayerInterfaceVersion unless renamed in `functions`. */
  readonly negotiateLoaderLayerInterfaceVersion: string;
  /** Interface 1: vkGetInstanceProcAddr unless renamed; interface 0 uses `<layerName>GetInstanceProcAddr`. */
  readonly getInstanceProcAddr: string;
  /** Interface 1: vkGetDeviceProcAddr unless renamed; interface 0 uses `<layerName>GetDeviceProcAddr`. */
  readonly getDeviceProcAddr: string;
}

// VK-CH-5
/** An implicit layer's pre-instance interceptors (manifest 1.1.2+), symbol names. */
export interface VulkanPreInstanceFunctions {
  readonly vkEnumerateInstanceExtensionProperties?: string;
  readonly vkEnumerateInstanceLayerProperties?: string;
  readonly vkEnumerateInstanceVersion?: string;
}

export interface PlannedVulkanLayer {
  readonly name: string;
  readonly kind: VulkanLayerKind;
  readonly origin: VulkanLayerOrigin;
  readonly manifestPath: string;
  /** What dlopen gets: absolute, relative-resolved, or a bare name for the system search. */
  readonly libraryPath: string;
  readonly symbols: VulkanLayerSymbols;
  readonly preInstanceFunctions: VulkanPreInstanceFunctions;
  /** VK_MAKE_API_VERSION of the manifest's api_version. */
  readonly apiVersion: number;
  readonly implementationVersion: number;
  /** The manifest's instance_extensions names (an application may enable them when the layer is on). */
  readonly instanceExtensionNames?: readonly string[];
  readonly reason: string;
}

/** VkExtensionProperties as a plan carries them. */
export interface VulkanPlannedExtension {
  readonly extensionName: string;
  readonly specVersion: number;
}

/**
 * What vkEnumerateInstanceExtensionProperties answers beside the drivers' extensions and the
 * loader's own (which the native side finds): as the Khronos loader computes it.
 */
export interface VulkanInstanceExtensionListing {
  /** The instance extensions of the implicit layers that are on, appended after the drivers' and the loader's own. */
  readonly implicitLayers: readonly VulkanPlannedExtension[];
  /** Each enumerable layer's own list, answered for its name (another name: VK_ERROR_LAYER_NOT_PRESENT). */
  readonly layers: readonly { readonly name: string; readonly extensions: readonly VulkanPlannedExtension[] }[];
}

/** One layer's device_extensions from its manifest. */
export interface VulkanLayerDeviceExtensions {
  readonly name: string;
  readonly extensions: readonly VulkanPlannedExtension[];
}

/** A layer as vkEnumerateInstanceLayerProperties reports it (VkLayerProperties; specVersion is the manifest's api_version). */
export interface VulkanEnumeratedLayer {
  readonly name: string;
  readonly description: string;
  readonly apiVersion: number;
  readonly implementationVersion: number;
}

/**
 * What the instance-less commands report for the discovery the plan came from, whatever the plan's
 * own drivers and chain (the exported vkEnumerateInstance* answer from it once the plan is published):
 * as the Khronos loader does, every selected driver, portability drivers too (vkCreateInstance
 * through the exported function still loads those only when the application enables portability
 * enumeration), and every layer that is available.
 */
export interface VulkanEnumerationListing {
  readonly drivers: readonly PlannedVulkanDriver[];
  readonly layers: readonly VulkanEnumeratedLayer[];
}

export interface PlannedVulkanDriver {
  readonly manifestPath: string;
  readonly libraryPath: string;
  /** VK_MAKE_API_VERSION of the manifest's ICD.api_version. */
  readonly apiVersion: number;
  readonly isPortabilityDriver: boolean;
  readonly reason: string;
}

/** The physical-device filters of the current Khronos loader, parsed by TypeScript, applied natively. */
export interface VulkanDeviceFilters {
  /** VK_LOADER_DEVICE_SELECT "vendorID:deviceID" (hex): that device is reported first. */
  readonly deviceSelect?: { readonly vendorId: number; readonly deviceId: number };
  /** VK_LOADER_DEVICE_ID_FILTER / VENDOR_ID_FILTER / DRIVER_ID_FILTER: inclusive ranges kept. */
  readonly deviceIdRanges?: readonly (readonly [number, number])[];
  readonly vendorIdRanges?: readonly (readonly [number, number])[];
  readonly driverIdRanges?: readonly (readonly [number, number])[];
  /** VK_LOADER_DISABLE_SELECT (a non-zero number): physical devices in the drivers' order, unsorted. */
  readonly disableSort?: true;
  /**
   * The settings file's device_configurations, in its order: vkEnumeratePhysicalDevices reports,
   * for each entry, the first physical device (Vulkan 1.1 or later) whose deviceUUID, driverUUID
   * and driverVersion match, and no other device; device groups are not filtered. Drivers that
   * support Vulkan 1.1 get apiVersion 1.1 at least (to answer the IDs). Absent: no selection.
   */
  readonly deviceConfigurations?: readonly VulkanDeviceConfiguration[];
}

/** One device_configurations entry of the loader settings file, its numbers as the Khronos loader stores them. */
export interface VulkanDeviceConfiguration {
  /** Its index in the file's device_configurations. */
  readonly index: number;
  /** VkPhysicalDeviceIDProperties::deviceUUID and driverUUID, 16 bytes each. */
  readonly deviceUUID: readonly number[];
  readonly driverUUID: readonly number[];
  /** Compared with VkPhysicalDeviceProperties::driverVersion (a uint32). */
  readonly driverVersion: number;
  /** Named in the warning when no device matches ('' when the file gives none or it does not fit). */
  readonly deviceName: string;
  readonly driverName: string;
}

export interface VulkanInstancePlan {
  /** The drivers to load, in the order the loader loads them. */
  readonly drivers: readonly PlannedVulkanDriver[];
  /** Index 0 is nearest the application; the last is nearest the drivers. */
  readonly layers: readonly PlannedVulkanLayer[];
  readonly enabledExtensionNames: readonly string[];
  readonly deviceFilters: VulkanDeviceFilters;
  /** VK_LOADER_DISABLE_INST_EXT_FILTER: hand the drivers' instance extensions through unfiltered. */
  readonly disableInstanceExtensionFilter: boolean;
  /**
   * VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING=1: the drivers' and layers' libraries stay mapped
   * for the rest of the process once loaded, as the Khronos loader then never unloads them.
   */
  readonly keepLibrariesMapped?: true;
  /** The layers' part of vkEnumerateInstanceExtensionProperties (absent: no layer lists any). */
  readonly instanceExtensionListing?: VulkanInstanceExtensionListing;
  /**
   * Each enumerable layer's device extensions (absent: none): vkEnumerateDeviceExtensionProperties
   * answers them for the layer's name, appends the implicit chain layers' to the driver's list, and
   * vkCreateDevice accepts a chain layer's beside the device's.
   */
  readonly layerDeviceExtensions?: readonly VulkanLayerDeviceExtensions[];
  /** The drivers and layers the instance-less commands report (absent: the plan's own drivers and chain). */
  readonly enumeration?: VulkanEnumerationListing;
  /** Every decision in words, in the order it was taken (for logs and `info`). */
  readonly decisions: readonly string[];
}
