// The Vulkan instance as the rest of the package sees it: built from a discovery plan, owning its
// physical devices and devices. Use after destroy() throws VulkanError; wrong arguments TypeError.
import type { VulkanInstancePlan } from '../plan/plan.js';
import {
  loadVulkanAddon,
  type NativeVulkanCreateInfo,
  type NativeVulkanInstance,
  type NativeVulkanMessage,
  type NativeVulkanPhysicalDevice,
} from '../native/addon.js';
import { Device, type DeviceCreateOptions } from './device.js';
import { platformPresentationSupport, Surface, type PresentationTarget, type SurfaceSource } from './surface.js';
import type { NativeVulkanCommands } from '../native/addon.js';
import { VulkanError, withVulkanErrors } from '../errors.js';
import { describeValue, HandleDestroyedError, InvalidArgumentError } from '../../core/errors.js';
import { toNativeVulkanPlan } from '../native/plan.js';
import { vulkanCompute, type NativeMemoryProperties, type NativePhysicalDeviceLimits } from '../native/addon.js';
import { namePhysicalDeviceFeatures, type PhysicalDeviceFeatures } from './physical-device-features.js';
import { vkVersionParts, type DebugUtilsMessageSeverityFlagsEXT, type DebugUtilsMessageTypeFlagsEXT, type MemoryHeapFlags, type MemoryPropertyFlags, type PhysicalDeviceType, type QueueFlags, type VkVersionParts } from '../../generated/vulkan.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

/**
 * What the application asks of vkCreateInstance. `enabledExtensionNames` is added to the plan's;
 * `collectCreateMessages` chains a debug-utils messenger into VkInstanceCreateInfo.pNext whose
 * messages `takeDebugMessages()` returns.
 */
export type CreateInstanceOptions = NativeVulkanCreateInfo;

/** A VK_EXT_debug_utils message. */
export interface DebugMessage extends NativeVulkanMessage {
  /** VkDebugUtilsMessageSeverityFlagBitsEXT: DebugUtilsMessageSeverityFlagsEXT.ERROR, WARNING, INFO, VERBOSE. */
  readonly severity: DebugUtilsMessageSeverityFlagsEXT;
  /** VkDebugUtilsMessageTypeFlagsEXT: DebugUtilsMessageTypeFlagsEXT.VALIDATION | GENERAL | PERFORMANCE ... */
  readonly types: DebugUtilsMessageTypeFlagsEXT;
}

/** Which messages a listener of startDebugMessenger() hears. */
export interface DebugMessengerOptions {
  /** VkDebugUtilsMessageSeverityFlagsEXT: VERBOSE 0x1, INFO 0x10, WARNING 0x100, ERROR 0x1000 (default all). */
  readonly severities?: number;
  /** VkDebugUtilsMessageTypeFlagsEXT: GENERAL 0x1, VALIDATION 0x2, PERFORMANCE 0x4 (default all). */
  readonly types?: number;
}

/** A listener's messenger (startDebugMessenger(listener)): stop() destroys it; it goes with its instance at the latest. */
export interface DebugMessenger {
  stop(): void;
  readonly isStopped: boolean;
}

/** VkPhysicalDeviceProperties' identifying fields. */
export interface PhysicalDeviceProperties {
  readonly deviceName: string;
  readonly vendorID: number;
  readonly deviceID: number;
  /** VkPhysicalDeviceType: PhysicalDeviceType.DISCRETE_GPU, INTEGRATED_GPU, CPU, ... */
  readonly deviceType: PhysicalDeviceType;
  /** The Vulkan version the device supports: `major`, `minor`, `patch`, `text` ("1.3.289"), and the packed uint32_t as `packed`. */
  readonly apiVersion: VkVersionParts;
  /** The driver's version, in its vendor's own encoding (not VK_MAKE_API_VERSION's for every vendor). */
  readonly driverVersion: number;
}

/** A VkQueueFamilyProperties' flags and count. */
export interface QueueFamily {
  /** VkQueueFlags: QueueFlags.GRAPHICS | QueueFlags.COMPUTE | ... */
  readonly queueFlags: QueueFlags;
  readonly queueCount: number;
  /** Meaningful bits of the timestamps its queues write (0: they write none; writeTimestamp is refused on such a family). */
  readonly timestampValidBits: number;
}

/** A VkPhysicalDeviceGroupProperties: devices that can make one logical device together. */
export interface PhysicalDeviceGroup {
  readonly physicalDevices: readonly PhysicalDevice[];
  readonly subsetAllocation: boolean;
}

export class PhysicalDevice {
  readonly properties: PhysicalDeviceProperties;
  readonly queueFamilies: readonly QueueFamily[];
  readonly handle: bigint;
  readonly #instance: Instance;

  /** @internal */
  constructor(instance: Instance, native: NativeVulkanPhysicalDevice) {
    this.#instance = instance;
    this.handle = native.handle;
    this.properties = Object.freeze({
      ...native.properties,
      deviceType: native.properties.deviceType as PhysicalDeviceType,
      apiVersion: vkVersionParts(native.properties.apiVersion),
    });
    this.queueFamilies = native.queueFamilies;
  }

  createDevice(options: DeviceCreateOptions): Device {
    return this.#instance.createDeviceOn(this, options);
  }

  /**
   * The platform presentation-support query (no surface needed):
   * vkGetPhysicalDeviceXlibPresentationSupportKHR for `{ xlib: { display, visualId } }`,
   * vkGetPhysicalDeviceXcbPresentationSupportKHR for `{ xcb: { connection, visualId } }`,
   * vkGetPhysicalDeviceWaylandPresentationSupportKHR for `{ wayland: { display } }`: whether queue
   * family `queueFamilyIndex` can present to that display (and visual). The platform's surface
   * extension must be enabled on the instance (VulkanError VK_ERROR_EXTENSION_NOT_PRESENT naming
   * it); a wrong target is InvalidArgumentError before any Vulkan call.
   */
  presentationSupport(queueFamilyIndex: number, target: PresentationTarget): boolean {
    const handle = this.#live();
    return platformPresentationSupport(this.#instance.surfaceBindings('presentationSupport'), handle, this.queueFamilies.length, queueFamilyIndex, target);
  }

  #live(): bigint {
    if (this.#instance.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'the physical device\'s instance was destroyed');
    return this.handle;
  }

  /** VkPhysicalDeviceLimits (the compute-related members and the viewport limits). */
  get limits(): PhysicalDeviceLimits {
    return vulkanCompute().physicalDeviceProperties(this.#live()).limits;
  }

  /** vkGetPhysicalDeviceFeatures */
  get features(): PhysicalDeviceFeatures {
    return namePhysicalDeviceFeatures(vulkanCompute().physicalDeviceFeatures(this.#live()));
  }

  /** vkGetPhysicalDeviceMemoryProperties */
  get memoryProperties(): PhysicalDeviceMemoryProperties {
    return vulkanCompute().physicalDeviceMemoryProperties(this.#live());
  }

  /** vkEnumerateDeviceExtensionProperties (the driver's and the implicit layers' device extensions). */
  enumerateDeviceExtensionProperties(): { readonly extensionName: string; readonly specVersion: number }[] {
    const handle = this.#live();
    return withVulkanErrors(() => vulkanCompute().physicalDeviceExtensions(handle));
  }

  /**
   * The first memory type in `memoryTypeBits` (from a buffer's memoryRequirements) that has every
   * flag of `requiredFlags` (VkMemoryPropertyFlags: MemoryPropertyFlags.DEVICE_LOCAL, HOST_VISIBLE,
   * HOST_COHERENT, HOST_CACHED, joined with `|`); -1 when there is none.
   */
  findMemoryType(memoryTypeBits: number, requiredFlags: MemoryPropertyFlags): number {
    if (!Number.isInteger(memoryTypeBits) || !Number.isInteger(requiredFlags)) throw new InvalidArgumentError('findMemoryType(memoryTypeBits, requiredFlags): integers expected');
    return this.memoryProperties.memoryTypes.findIndex((t, i) => ((memoryTypeBits >>> i) & 1) === 1 && (t.propertyFlags & requiredFlags) === requiredFlags);
  }

  /**
   * findMemoryType() that cannot flow on unchecked: the index, or InvalidArgumentError naming the
   * requirement bits, the flags and the memory types there are.
   */
  requireMemoryType(memoryTypeBits: number, requiredFlags: number): number {
    const index = this.findMemoryType(memoryTypeBits, requiredFlags);
    if (index < 0) {
      const types = this.memoryProperties.memoryTypes.map((t, i) => `${i}: 0x${t.propertyFlags.toString(16)}`).join(', ');
      throw new InvalidArgumentError(
        `requireMemoryType: no memory type in memoryTypeBits 0x${(memoryTypeBits >>> 0).toString(16)} has every flag of 0x${(requiredFlags >>> 0).toString(16)} (the types and their VkMemoryPropertyFlags: ${types || 'none'})`,
        'requiredFlags',
      );
    }
    return index;
  }
}

export type PhysicalDeviceLimits = NativePhysicalDeviceLimits;
/** VkPhysicalDeviceMemoryProperties: the memory types (flags: MemoryPropertyFlags) and heaps (flags: MemoryHeapFlags). */
export interface PhysicalDeviceMemoryProperties extends NativeMemoryProperties {
  readonly memoryTypes: readonly { readonly propertyFlags: MemoryPropertyFlags; readonly heapIndex: number }[];
  readonly memoryHeaps: readonly { readonly size: bigint; readonly flags: MemoryHeapFlags }[];
}

export class Instance {
  readonly enabledLayerNames: readonly string[];
  readonly #native: NativeVulkanInstance;
  readonly #devices = new Set<Device>();
  readonly #surfaces = new Set<Surface>();
  #surfaceBindings: NativeVulkanCommands | undefined;
  readonly #deviceSelection: boolean;

  /** @internal `deviceSelection`: the plan carries the settings file's device_configurations. */
  constructor(native: NativeVulkanInstance, deviceSelection = false) {
    this.#native = native;
    this.#deviceSelection = deviceSelection;
    this.enabledLayerNames = Object.freeze([...native.layerNames]);
  }

  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /** The VkInstance, for native code that calls the addon's exported functions. */
  get handle(): bigint {
    return withVulkanErrors(() => this.#native.handle);
  }

  enumeratePhysicalDevices(): PhysicalDevice[] {
    return withVulkanErrors(() => this.#native.enumeratePhysicalDevices()).map((d) => new PhysicalDevice(this, d));
  }

  /**
   * vkEnumeratePhysicalDeviceGroups: the groups in the loader's order, each of this instance's
   * physical devices. The loader settings file's device_configurations leave groups alone, so a
   * device enumeratePhysicalDevices() does not report is left out of its group here (and a group
   * with none of them left out altogether).
   */
  enumeratePhysicalDeviceGroups(): PhysicalDeviceGroup[] {
    const devices = this.enumeratePhysicalDevices();
    const selected = this.#deviceSelection;
    const groups: PhysicalDeviceGroup[] = [];
    for (const g of withVulkanErrors(() => this.#native.enumeratePhysicalDeviceGroups())) {
      const physicalDevices: PhysicalDevice[] = [];
      for (const h of g.physicalDevices) {
        const d = devices.find((x) => x.handle === h);
        if (d !== undefined) physicalDevices.push(d);
        else if (!selected) throw new VulkanError(-3, `vkEnumeratePhysicalDeviceGroups named a physical device (0x${h.toString(16)}) vkEnumeratePhysicalDevices did not`);
      }
      if (physicalDevices.length > 0) groups.push({ physicalDevices, subsetAllocation: g.subsetAllocation });
    }
    return groups;
  }

  /** vkGetInstanceProcAddr for this instance: the function's address, 0n for NULL. */
  getInstanceProcAddr(name: string): bigint {
    if (typeof name !== 'string') throw new InvalidArgumentError('getInstanceProcAddr(name): name must be a string');
    return withVulkanErrors(() => this.#native.getInstanceProcAddr(name));
  }

  /**
   * A VK_EXT_debug_utils messenger through the chain (needs VK_EXT_debug_utils enabled). With no
   * listener, its messages are kept for takeDebugMessages(). With a listener, each message is
   * delivered to it as it happens: raised on this thread, the listener runs inside the Vulkan call
   * that raised it (so it is heard even if that call then crashes the process); raised on another
   * thread (a driver's or a fence wait's), it comes through the event loop. Inside the listener,
   * make no Vulkan call (a layer may hold its locks while it reports): queue such work instead
   * (queueMicrotask, setImmediate). A listener that throws is reported as an uncaught exception.
   * `options.severities` / `options.types`: VkDebugUtilsMessageSeverityFlagsEXT (default all:
   * VERBOSE 0x1 | INFO 0x10 | WARNING 0x100 | ERROR 0x1000) and VkDebugUtilsMessageTypeFlagsEXT
   * (default GENERAL 0x1 | VALIDATION 0x2 | PERFORMANCE 0x4). stop() (or instance.destroy()) ends it.
   */
  startDebugMessenger(): void;
  startDebugMessenger(listener: (message: DebugMessage) => void, options?: DebugMessengerOptions): DebugMessenger;
  startDebugMessenger(listener?: (message: DebugMessage) => void, options: DebugMessengerOptions = {}): DebugMessenger | void {
    if (listener === undefined) {
      withVulkanErrors(() => this.#native.startDebugMessenger());
      return;
    }
    if (typeof listener !== 'function') throw new InvalidArgumentError(`startDebugMessenger(listener): listener must be a function, got ${describeValue(listener)}`, 'listener');
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError(`startDebugMessenger(listener, options): options must be an object, got ${describeValue(options)}`, 'options');
    const severities = options.severities ?? 0x1111;
    const types = options.types ?? 0x7;
    for (const [name, value, known] of [['options.severities', severities, 0x1111], ['options.types', types, 0x7]] as const) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || (value & ~known) !== 0) {
        throw new InvalidArgumentError(`startDebugMessenger: ${name} must be a non-zero mask of 0x${known.toString(16)}, got ${describeValue(value)}`, name);
      }
    }
    const id = withVulkanErrors(() => this.#native.addDebugListener(listener, severities, types));
    let stopped = false;
    return {
      stop: () => {
        if (stopped || this.#native.isDestroyed) return;
        withVulkanErrors(() => this.#native.removeDebugListener(id));
        stopped = true;
      },
      get isStopped() {
        return stopped;
      },
    };
  }

  /** The messages heard so far (by the create-info messenger and the one startDebugMessenger made); clears them. */
  takeDebugMessages(): DebugMessage[] {
    return this.#native.takeDebugMessages();
  }

  /**
   * A VkSurfaceKHR: `{ headless: true }` (VK_EXT_headless_surface), `{ xlib: { display, window } }`
   * (VK_KHR_xlib_surface), `{ xcb: { connection, window } }` (VK_KHR_xcb_surface) or
   * `{ wayland: { display, surface } }` (VK_KHR_wayland_surface); pointers as bigints, windows as
   * bigints or numbers, the way Node window libraries hand them out. The extension and
   * VK_KHR_surface must be enabled on the instance (VulkanError VK_ERROR_EXTENSION_NOT_PRESENT
   * naming it); a wrong source is InvalidArgumentError before any Vulkan call. Destroyed with the
   * instance (after its devices) at the latest.
   */
  createSurface(source: SurfaceSource): Surface {
    const surface = Surface.create(this, this.surfaceBindings('createSurface'), source, (s) => this.#surfaces.delete(s));
    this.#surfaces.add(surface);
    return surface;
  }

  /** @internal The bindings the instance's surfaces and the platform presentation queries go through. */
  surfaceBindings(what: string): NativeVulkanCommands {
    if (this.#native.isDestroyed) throw new HandleDestroyedError(`${what}: the VkInstance was destroyed`);
    const addon = loadVulkanAddon();
    this.#surfaceBindings ??= withVulkanErrors(() => new addon.VulkanCommands(this.#native.handle));
    return this.#surfaceBindings;
  }

  /** Destroys the instance's devices, then the instance; the drivers and layers unload. Does nothing once destroyed. */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    for (const device of this.#devices) if (!device.isDestroyed) device.checkUnused();
    // Devices first, through their own destroy(): the objects they own go with them.
    for (const device of [...this.#devices]) if (!device.isDestroyed) device.destroy();
    for (const surface of [...this.#surfaces]) surface.destroy();
    withVulkanErrors(() => this.#native.destroy());
    this.#devices.clear();
  }

  /** @internal The PhysicalDevice for a VkPhysicalDevice of this instance (TypeError when it is not one). */
  physicalDeviceOf(handle: bigint): PhysicalDevice {
    const found = this.enumeratePhysicalDevices().find((d) => d.handle === handle);
    if (found === undefined) throw new InvalidArgumentError(`0x${handle.toString(16)} is not a VkPhysicalDevice of this instance`);
    return found;
  }

  /** @internal Takes ownership of a VkDevice native code created on `physicalDevice` with `options`. */
  adoptDeviceOn(physicalDevice: PhysicalDevice, handle: bigint, options: DeviceCreateOptions): Device {
    const device = Device.adopt(this.#native, physicalDevice, handle, options, (d) => this.#devices.delete(d));
    this.#devices.add(device);
    return device;
  }

  /** @internal */
  createDeviceOn(physicalDevice: PhysicalDevice, options: DeviceCreateOptions): Device {
    const device = Device.create(this.#native, physicalDevice, options, (d) => this.#devices.delete(d));
    this.#devices.add(device);
    return device;
  }
}

/**
 * @internal Takes ownership of a VkInstance native code created through the exported
 * vkCreateInstance (an OpenXR runtime's xrCreateVulkanInstanceKHR, with the published plan).
 */
export function adoptInstance(handle: bigint): Instance {
  const addon = loadVulkanAddon();
  return new Instance(withVulkanErrors(() => new addon.VulkanInstance(handle)));
}

/**
 * The drivers' part of vkEnumerateInstanceExtensionProperties(NULL) for a plan: the drivers'
 * instance extensions that the loader knows (all of them with disableInstanceExtensionFilter, never
 * the window-system ones it does not implement) and the loader's own; names only, no layers'.
 */
export function instanceExtensionsOfPlan(plan: VulkanInstancePlan): string[] {
  return loadVulkanAddon().vulkanInstanceExtensions(toNativeVulkanPlan(plan)).map((e) => e.extensionName);
}

/**
 * The pre-instance functions for a plan: implicit layers with pre_instance_functions
 * intercept them; their libraries are loaded for the call and unloaded after it.
 */
export const preInstance = {
  enumerateInstanceVersion(plan: VulkanInstancePlan): number {
    return withVulkanErrors(() => loadVulkanAddon().vulkanPreInstance(toNativeVulkanPlan(plan), 'vkEnumerateInstanceVersion'));
  },
  /** The names vkEnumerateInstanceExtensionProperties(NULL) lists. */
  enumerateInstanceExtensionProperties(plan: VulkanInstancePlan): string[] {
    return preInstance.instanceExtensionProperties(plan).map((e) => e.extensionName);
  },
  /**
   * vkEnumerateInstanceExtensionProperties(layerName) in full, as the Khronos loader answers it:
   * without a layer name the drivers' (in driver order), the loader's own, then the implicit
   * layers' that are on, no name twice (the first keeps its spec version); with one, that layer's
   * own (VulkanError VK_ERROR_LAYER_NOT_PRESENT for a name the plan's listing does not know).
   */
  instanceExtensionProperties(plan: VulkanInstancePlan, layerName?: string): { extensionName: string; specVersion: number }[] {
    return withVulkanErrors(() => loadVulkanAddon().vulkanPreInstance(toNativeVulkanPlan(plan), 'vkEnumerateInstanceExtensionProperties', layerName));
  },
  enumerateInstanceLayerProperties(plan: VulkanInstancePlan): string[] {
    return withVulkanErrors(() => loadVulkanAddon().vulkanPreInstance(toNativeVulkanPlan(plan), 'vkEnumerateInstanceLayerProperties'));
  },
};

/**
 * Publishes `plan` for native code in this process: from now on the addon's exported
 * vkCreateInstance and vkEnumerateInstance* work from this snapshot (call again to refresh it).
 */
export function publishVulkanPlan(plan: VulkanInstancePlan): void {
  loadVulkanAddon().vulkanPublishPlan(toNativeVulkanPlan(plan));
}

/** Carries out a discovery plan: loads its drivers and layers, builds the chain, creates the instance. */
export function createInstanceFromPlan(plan: VulkanInstancePlan, options: CreateInstanceOptions): Instance {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('createInstanceFromPlan(plan, options): options must be an object');
  if (typeof options.applicationName !== 'string') throw new InvalidArgumentError('options.applicationName must be a string');
  if (typeof plan !== 'object' || plan === null || !Array.isArray(plan.enabledExtensionNames)) {
    throw new InvalidArgumentError(`createInstanceFromPlan(plan, options): plan must be what loader.planInstance() returns, got ${describeValue(plan)}`, 'plan');
  }
  if (options.enabledExtensionNames !== undefined && !Array.isArray(options.enabledExtensionNames)) {
    throw new InvalidArgumentError(`options.enabledExtensionNames must be an array of extension names, got ${describeValue(options.enabledExtensionNames)}`, 'options.enabledExtensionNames');
  }
  const extensions = [...new Set([...plan.enabledExtensionNames, ...(options.enabledExtensionNames ?? [])])];
  const addon = loadVulkanAddon();
  const native = withVulkanErrors(
    () =>
      new addon.VulkanInstance(toNativeVulkanPlan(plan), {
        applicationName: options.applicationName,
        ...(options.applicationVersion !== undefined && { applicationVersion: options.applicationVersion }),
        ...(options.engineName !== undefined && { engineName: options.engineName }),
        ...(options.engineVersion !== undefined && { engineVersion: options.engineVersion }),
        ...(options.apiVersion !== undefined && { apiVersion: options.apiVersion }),
        ...(options.flags !== undefined && { flags: options.flags }),
        ...(options.collectCreateMessages !== undefined && { collectCreateMessages: options.collectCreateMessages }),
        ...(options.directDrivers !== undefined && { directDrivers: options.directDrivers }),
        enabledExtensionNames: extensions,
      }),
  );
  return new Instance(native, plan.deviceFilters.deviceConfigurations !== undefined);
}
