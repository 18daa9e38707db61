// XR_KHR_vulkan_enable2: the Vulkan instance and device an XR session renders with, created
// THROUGH the runtime (xrCreateVulkanInstanceKHR, xrGetVulkanGraphicsDevice2KHR,
// xrCreateVulkanDeviceKHR), which calls this package's exported vkGetInstanceProcAddr: the runtime
// adds what it needs, our Vulkan loader builds the chain from the published plan (layers
// included), and the typed Vulkan API adopts the results.
import { vkMakeApiVersion, vkVersionParts } from '../../generated/vulkan.js';
import { xrVersionParts, type XrVersionParts } from '../../generated/openxr.js';
import type { VulkanLoader } from '../../vulkan/loader.js';
import type { PlanInstanceOptions } from '../../vulkan/plan/instance-plan.js';
import { adoptInstance, publishVulkanPlan, type Instance as VulkanInstance, type PhysicalDevice } from '../../vulkan/api/instance.js';
import { nativeDeviceFeatures, type Device, type DeviceCreateOptions } from '../../vulkan/api/device.js';
import type { Queue } from '../../vulkan/api/commands.js';
import { toVulkanError } from '../../vulkan/errors.js';
import type { Instance } from '../api/instance.js';
import { instanceState } from '../api/handles.js';
import { openXrErrorFromCode, rethrowNative } from '../errors.js';
import type { System } from '../api/system.js';
import { processVulkanLoader } from '../../vulkan/api/process-loader.js';
import { InvalidArgumentError, describeValue, invalidArgument } from '../../core/errors.js';

export type { XrVersionParts };

/** xrGetVulkanGraphicsRequirements2KHR: the Vulkan API versions the runtime accepts. */
export interface VulkanGraphicsRequirements {
  readonly minApiVersionSupported: XrVersionParts;
  readonly maxApiVersionSupported: XrVersionParts;
}

export interface VulkanGraphicsOptions {
  /** Its plan for these layers and extensions is published (publishVulkanPlan) for the runtime's vkCreateInstance. */
  readonly loader: VulkanLoader;
  readonly applicationName: string;
  /** VkApplicationInfo.apiVersion (vkMakeApiVersion); default: the runtime's minimum, at least 1.1, at most its maximum. */
  readonly apiVersion?: number;
  /** Vulkan layers (e.g. VK_LAYER_KHRONOS_validation): in the published plan, so in the chain. */
  readonly enabledLayerNames?: readonly string[];
  /** Instance extensions beside those the runtime adds (e.g. VK_EXT_debug_utils). */
  readonly enabledExtensionNames?: readonly string[];
  readonly deviceExtensionNames?: readonly string[];
  /**
   * Device features the runtime's xrCreateVulkanDeviceKHR enables beside its own, as
   * DeviceCreateOptions.enabledFeatures: e.g. `{ multiview: true }` to draw both eyes in one pass
   * into array swapchains (Vulkan spec, 'Multiview': core in Vulkan 1.1, where every device
   * supports it). The typed API then knows what the device has (view masks are refused without multiview).
   */
  readonly enabledFeatures?: DeviceCreateOptions['enabledFeatures'];
  /** Default: the first queue family with graphics (VK_QUEUE_GRAPHICS_BIT). */
  readonly queueFamilyIndex?: number;
}

/** The Vulkan objects of one XR system, each owned by this package's typed Vulkan API. */
export interface VulkanGraphics {
  readonly instance: VulkanInstance;
  readonly physicalDevice: PhysicalDevice;
  readonly device: Device;
  readonly queueFamilyIndex: number;
  readonly queueIndex: number;
  /** The queue the session's graphics binding names (submit the eye images' work here). */
  readonly queue: Queue;
}

const VK_QUEUE_GRAPHICS_BIT = 0x1;
const XR_ERROR_RUNTIME_FAILURE = -2;

function versionParts(v: bigint): XrVersionParts {
  return xrVersionParts(v);
}

function checkSystem(instance: Instance, system: System): void {
  if (system === null || typeof system !== 'object' || system.instance !== instance) {
    throw invalidArgument('system', 'a System of this instance (instance.getSystem())', system);
  }
}

/** Native calls that fail with an XrResult throw OpenXrError, with a VkResult VulkanError. */
function call<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    const vk = toVulkanError(error);
    if (vk !== error) throw vk;
    rethrowNative(error);
  }
}

/**
 * Monado (up to at least the commit this project pins) ignores the application's
 * pfnGetInstanceProcAddr after xrCreateVulkanInstanceKHR: xrGetVulkanGraphicsDevice2KHR
 * (oxr_api_system.c) and the Vulkan session's client compositor (oxr_session_gfx_vk.c) call the
 * vkGetInstanceProcAddr Monado links against, the system's Khronos libvulkan, with the
 * application's VkInstance. A VkInstance from this package's loader is foreign to the Khronos
 * loader, which aborts the process. Fine once this package's loader is the process's
 * libvulkan.so.1 (provideProcessVulkanLoader, lib/vulkan/api/process-loader.ts); refused here with
 * a typed error otherwise.
 */
function refuseForeignLoaderRuntimes(instance: Instance): void {
  const runtimeName = instance.getProperties().runtimeName;
  if (/^Monado\b/.test(runtimeName) && processVulkanLoader().kind !== 'this-package') {
    throw openXrErrorFromCode(
      XR_ERROR_RUNTIME_FAILURE,
      `${runtimeName} calls its own libvulkan's vkGetInstanceProcAddr with the application's VkInstance in xrGetVulkanGraphicsDevice2KHR and ` +
        "xrCreateSession (not the pfnGetInstanceProcAddr the application passed), so a Vulkan instance from this package's loader would abort the process there; " +
        "call provideProcessVulkanLoader() (khronos-loader/vulkan) before creating the OpenXR instance",
    );
  }
}

export function vulkanGraphicsRequirements(instance: Instance, system: System): VulkanGraphicsRequirements {
  checkSystem(instance, system);
  const s = instanceState(instance);
  const r = call(() => s.api.openxrVulkanGraphicsRequirements(s.native, system.id));
  return { minApiVersionSupported: versionParts(r.minApiVersion), maxApiVersionSupported: versionParts(r.maxApiVersion) };
}

function defaultApiVersion(r: VulkanGraphicsRequirements): number {
  const { minApiVersionSupported: min, maxApiVersionSupported: max } = r;
  const atLeast11 = min.major > 1 || (min.major === 1 && min.minor >= 1) ? min : { major: 1, minor: 1 };
  const capped = atLeast11.major > max.major || (atLeast11.major === max.major && atLeast11.minor > max.minor) ? max : atLeast11;
  return vkMakeApiVersion(0, capped.major, capped.minor, 0);
}

/**
 * Creates the Vulkan instance and device for `system` through the runtime. Destroy them after
 * every session that renders with them (device.destroy() refuses while one is live), device
 * first: `graphics.instance.destroy()` does both.
 */
export function createVulkanGraphics(instance: Instance, system: System, options: VulkanGraphicsOptions): VulkanGraphics {
  checkSystem(instance, system);
  if (typeof options !== 'object' || options === null) throw invalidArgument('createVulkanGraphics(system, options): options', 'an object', options);
  if (typeof options.loader !== 'object' || options.loader === null || typeof options.loader.planInstance !== 'function') {
    throw invalidArgument('options.loader', 'a Vulkan loader (createLoader() from khronos-loader/vulkan)', options.loader);
  }
  if (typeof options.applicationName !== 'string') throw invalidArgument('options.applicationName', 'a string', options.applicationName);
  refuseForeignLoaderRuntimes(instance);
  const requirements = vulkanGraphicsRequirements(instance, system);
  const planOptions: PlanInstanceOptions = {
    ...(options.enabledLayerNames !== undefined && { enabledLayerNames: options.enabledLayerNames }),
    ...(options.enabledExtensionNames !== undefined && { enabledExtensionNames: options.enabledExtensionNames }),
  };
  const plan = options.loader.planInstance(planOptions);
  publishVulkanPlan(plan);
  const s = instanceState(instance);
  const apiVersion = options.apiVersion ?? defaultApiVersion(requirements);
  const vkInstanceHandle = call(() =>
    s.api.openxrCreateVulkanInstance(s.native, system.id, {
      applicationName: options.applicationName,
      apiVersion,
      enabledExtensionNames: [...new Set([...plan.enabledExtensionNames, ...(options.enabledExtensionNames ?? [])])],
    }),
  );
  const vkInstance = adoptInstance(vkInstanceHandle);
  try {
    const physicalHandle = call(() => s.api.openxrGetVulkanGraphicsDevice(s.native, system.id, vkInstanceHandle));
    const physicalDevice = vkInstance.physicalDeviceOf(physicalHandle);
    const queueFamilyIndex = options.queueFamilyIndex ?? physicalDevice.queueFamilies.findIndex((f) => (f.queueFlags & VK_QUEUE_GRAPHICS_BIT) !== 0);
    if (!Number.isInteger(queueFamilyIndex) || physicalDevice.queueFamilies[queueFamilyIndex] === undefined) {
      throw new InvalidArgumentError(`options.queueFamilyIndex must be a queue family of ${physicalDevice.properties.deviceName} (0 to ${physicalDevice.queueFamilies.length - 1}), got ${describeValue(queueFamilyIndex)}`, 'options.queueFamilyIndex');
    }
    const deviceOptions: DeviceCreateOptions = {
      queueCreateInfos: [{ queueFamilyIndex, queuePriorities: [1] }],
      enabledExtensionNames: options.deviceExtensionNames ?? [],
      ...(options.enabledFeatures !== undefined && { enabledFeatures: options.enabledFeatures }),
    };
    const features = nativeDeviceFeatures(options.enabledFeatures);
    const device11 = physicalDevice.properties.apiVersion.major > 1 || physicalDevice.properties.apiVersion.minor >= 1;
    if (features?.multiview === true && (!device11 || apiVersion < vkMakeApiVersion(0, 1, 1, 0))) {
      // Before Vulkan 1.1 multiview is VK_KHR_multiview's, which the typed API does not chain (Vulkan spec, 'Multiview').
      throw new InvalidArgumentError(
        `options.enabledFeatures.multiview needs Vulkan 1.1 (multiview is core there): the instance's apiVersion is ${vkVersionParts(apiVersion).text} and ${physicalDevice.properties.deviceName} is ${physicalDevice.properties.apiVersion.text}`,
        'options.enabledFeatures.multiview',
      );
    }
    const nativeOptions = features === undefined ? deviceOptions : { ...deviceOptions, nativeFeatures: features };
    const deviceHandle = call(() => s.api.openxrCreateVulkanDevice(s.native, system.id, physicalHandle, nativeOptions));
    const device = vkInstance.adoptDeviceOn(physicalDevice, deviceHandle, deviceOptions);
    return { instance: vkInstance, physicalDevice, device, queueFamilyIndex, queueIndex: 0, queue: device.queue(queueFamilyIndex, 0) };
  } catch (error) {
    vkInstance.destroy();
    throw error;
  }
}
