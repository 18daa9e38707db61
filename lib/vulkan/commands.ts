// The generated Vulkan bindings: every command of vk.xml (Vulkan 1.0-1.4 and the KHR and EXT
// extensions the generator selects) as a function over plain objects. The functions are built from
// the command list; the native side (native/vulkan/addon/vulkan_commands.cc) marshals through the
// generated tables with the marshaller OpenXR's bindings use (docs/usage.md, "Every Vulkan command:
// vulkanCommands").
import { VK_GENERATED_COMMANDS, type VkCommands, type VkDeviceMemory, type VkDevice, type VkInstance } from '../generated/vulkan-commands.js';
import { InvalidArgumentError } from '../core/errors.js';
import { Device } from './api/device.js';
import { Instance } from './api/instance.js';
import { toVulkanError } from './errors.js';
import { loadVulkanAddon, type NativeVulkanCommands } from './native/addon.js';

export type * from '../generated/vulkan-commands.js';
export { VK_GENERATED_COMMANDS, VK_HANDLE_TYPES } from '../generated/vulkan-commands.js';
/** The `sType` values of the structures (VK_STRUCTURE_TYPE_...), for pNext chains. */
export { VkStructureType } from '../generated/vulkan.js';

/** The bindings, with the instance and device they are bound to and access to the memory they mapped. */
export type VulkanCommands = VkCommands & {
  /** The VkInstance (null for bindings made without one: the pre-instance commands only). */
  readonly instanceHandle: VkInstance | null;
  /** The VkDevice, for bindings made from a typed-API Device or a VkDevice handle. */
  readonly deviceHandle: VkDevice | null;
  /** Bytes of memory these bindings mapped (vkMapMemory), from `offset` in the mapped range. */
  readMapped(memory: VkDeviceMemory, offset: number, size: number): Uint8Array;
  /** Writes bytes into memory these bindings mapped, within the mapped range. */
  writeMapped(memory: VkDeviceMemory, offset: number, bytes: Uint8Array): void;
  /** How many handles of a type (its registry name) these bindings created or retrieved and hold alive. */
  liveHandleCount(type: string): number;
};

/**
 * The generated bindings bound to a typed-API `Instance` or `Device`, or to a raw handle (a bigint)
 * of this loader: a VkInstance (e.g. the one the bindings' own `vkCreateInstance` returned) or a
 * VkDevice (the bindings' own `vkCreateDevice`'s, a typed `Device`'s `handle`, or one an OpenXR
 * runtime made with `xrCreateVulkanDeviceKHR`) — bound to a VkDevice, the bindings also reach its
 * instance, and the device's extensions are the ones it was created with. Without a target, only
 * the pre-instance commands work (`vkEnumerateInstanceVersion`, `vkEnumerateInstanceExtensionProperties`,
 * `vkEnumerateInstanceLayerProperties`, `vkCreateInstance`, from the plan published with
 * `loader.publishPlan()`).
 *
 * Arguments follow the C signature without counts (arrays carry their lengths) and without the
 * outputs; handles are bigints branded by type; each call returns `{ result, ...outputs }` by the
 * C parameter names and throws `VulkanError` on a failing VkResult — `VK_ERROR_EXTENSION_NOT_PRESENT`,
 * before any Vulkan call, for a command of an extension the instance or device did not enable.
 * Every handle passed in must be one these bindings created or retrieved, alive and of the member's
 * type (KL_INVALID_ARGUMENT, KL_HANDLE_DESTROYED); destroying a parent through them destroys the
 * children they created first, newest first.
 */
export function vulkanCommands(target?: Instance | Device | bigint): VulkanCommands {
  const addon = loadVulkanAddon();
  let native: NativeVulkanCommands;
  try {
    if (target === undefined) native = new addon.VulkanCommands();
    else if (typeof target === 'bigint') native = new addon.VulkanCommands(target);
    else if (target instanceof Instance) native = new addon.VulkanCommands(target.handle);
    else if (target instanceof Device) native = new addon.VulkanCommands(target.nativeDevice, target.enabledExtensionNames);
    else throw new InvalidArgumentError(`vulkanCommands(target): target must be an Instance, a Device, or a VkInstance or VkDevice bigint, got ${typeof target}`, 'target');
  } catch (error) {
    throw toVulkanError(error);
  }
  const bound = native;
  const commands: Record<string, unknown> = {
    instanceHandle: bound.instance,
    deviceHandle: bound.device,
    readMapped: (memory: bigint, offset: number, size: number): Uint8Array => {
      try {
        return bound.readMapped(memory, offset, size);
      } catch (error) {
        throw toVulkanError(error);
      }
    },
    writeMapped: (memory: bigint, offset: number, bytes: Uint8Array): void => {
      try {
        bound.writeMapped(memory, offset, bytes);
      } catch (error) {
        throw toVulkanError(error);
      }
    },
    liveHandleCount: (type: string): number => {
      try {
        return bound.liveHandleCount(type);
      } catch (error) {
        throw toVulkanError(error);
      }
    },
  };
  VK_GENERATED_COMMANDS.forEach((name, index) => {
    commands[name] = (...args: unknown[]): unknown => {
      try {
        return bound.call(index, args);
      } catch (error) {
        throw toVulkanError(error);
      }
    };
  });
  return commands as unknown as VulkanCommands;
}
