// A VkDevice created through the loader's device chain.
import { loadVulkanAddon, type NativeVulkanDevice, type NativeVulkanInstance } from '../native-api.js';
import { VulkanError, withVulkanErrors } from './errors.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

export interface QueueCreateInfo {
  readonly queueFamilyIndex: number;
  readonly queuePriorities: readonly number[];
}

export interface DeviceCreateOptions {
  readonly queueCreateInfos: readonly QueueCreateInfo[];
  readonly enabledExtensionNames?: readonly string[];
}

interface PhysicalDeviceLike {
  readonly handle: bigint;
  readonly queueFamilies: readonly { readonly queueCount: number }[];
}

export class Device {
  readonly #native: NativeVulkanDevice;
  readonly #queueCounts: ReadonlyMap<number, number>;
  readonly #onDestroy: (d: Device) => void;

  private constructor(native: NativeVulkanDevice, queueCounts: ReadonlyMap<number, number>, onDestroy: (d: Device) => void) {
    this.#native = native;
    this.#queueCounts = queueCounts;
    this.#onDestroy = onDestroy;
  }

  /** @internal */
  static create(
    instance: NativeVulkanInstance,
    physicalDevice: PhysicalDeviceLike,
    options: DeviceCreateOptions,
    onDestroy: (d: Device) => void,
  ): Device {
    if (typeof options !== 'object' || options === null || !Array.isArray(options.queueCreateInfos)) {
      throw new TypeError('createDevice(options): options.queueCreateInfos must be an array');
    }
    const counts = new Map<number, number>();
    for (const q of options.queueCreateInfos) {
      const family = physicalDevice.queueFamilies[q.queueFamilyIndex];
      if (!Number.isInteger(q.queueFamilyIndex) || family === undefined) {
        throw new TypeError(`createDevice: queueFamilyIndex ${String(q.queueFamilyIndex)} is not a queue family of this physical device`);
      }
      if (!Array.isArray(q.queuePriorities) || q.queuePriorities.length === 0 || q.queuePriorities.length > family.queueCount) {
        throw new TypeError(`createDevice: queuePriorities must hold 1..${family.queueCount} numbers for family ${q.queueFamilyIndex}`);
      }
      if (counts.has(q.queueFamilyIndex)) throw new TypeError(`createDevice: queue family ${q.queueFamilyIndex} is listed twice`);
      counts.set(q.queueFamilyIndex, q.queuePriorities.length);
    }
    const addon = loadVulkanAddon();
    const native = withVulkanErrors(() => new addon.VulkanDevice(instance, physicalDevice.handle, options));
    return new Device(native, counts, onDestroy);
  }

  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  get handle(): bigint {
    return withVulkanErrors(() => this.#native.handle);
  }

  /** vkGetDeviceProcAddr: the first layer's or the driver's function for device commands; 0n for NULL. */
  getDeviceProcAddr(name: string): bigint {
    if (typeof name !== 'string') throw new TypeError('getDeviceProcAddr(name): name must be a string');
    return withVulkanErrors(() => this.#native.getDeviceProcAddr(name));
  }

  /** vkGetDeviceQueue for a queue the device was created with. */
  getQueue(family: number, index: number): bigint {
    const count = this.#queueCounts.get(family);
    if (count === undefined) throw new TypeError(`getQueue: the device was created with no queue of family ${String(family)}`);
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new TypeError(`getQueue: index ${String(index)} is outside 0..${count - 1} for family ${family}`);
    }
    return withVulkanErrors(() => this.#native.getQueue(family, index));
  }

  destroy(): void {
    if (this.#native.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'the Vulkan device (or its instance) was already destroyed');
    withVulkanErrors(() => this.#native.destroy());
    this.#onDestroy(this);
  }
}
