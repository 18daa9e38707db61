// The errors planted for the validation layers beside a "reports nothing" check, in the same test
// and with the same settings, so a silent layer is shown to be listening (and its report file to be
// writable): core_validation is handed an XrSpace never created, VK_LAYER_KHRONOS_validation a
// vkGetDeviceQueue with a queue index the device was not created with (through the raw bindings:
// the typed API refuses it before Vulkan).
import path from 'node:path';
import { expect } from 'vitest';
import { createHostPlatform } from '../../lib/core/platform/host.js';
import { openXrCommands } from '../../lib/openxr/commands.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import type { Instance as VulkanInstance } from '../../lib/vulkan/api/instance.js';
import { vulkanCommands } from '../../lib/vulkan/commands.js';
import { openXrErrorFrom } from './errors.js';

export const CORE_VALIDATION_LAYER = 'XR_APILAYER_LUNARG_core_validation';
/** What core_validation writes for the error plantCoreValidationError() makes. */
export const PLANTED_CORE_VALIDATION_VUID = 'VUID-xrLocateSpace-space-parameter';
/** What VK_LAYER_KHRONOS_validation reports for the error plantVulkanValidationError() makes. */
export const PLANTED_VULKAN_VALIDATION_VUID = 'VUID-vkGetDeviceQueue-queueIndex-00385';

/**
 * An instance over the simulated runtime through core_validation (its manifest's folder), which
 * reads its report settings (XR_CORE_VALIDATION_*) from the process environment as set now; one
 * invalid-handle call, then the instance is destroyed.
 */
export function plantCoreValidationError(coreValidationManifest: string): void {
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: path.dirname(coreValidationManifest) };
  const instance = createLoader({ platform: createHostPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions }).createInstance({
    applicationName: 'planted error',
    enabledApiLayerNames: [CORE_VALIDATION_LAYER],
    enabledExtensionNames: ['XR_MND_headless'],
  });
  try {
    expect(instance.apiLayerNames).toEqual([CORE_VALIDATION_LAYER]);
    const local = instance.createSession(instance.getSystem(), { headless: true }).createReferenceSpace('local');
    expect(openXrErrorFrom(() => openXrCommands(instance).xrLocateSpace(0x5eed_0001n, local.handle, 1n)).result).toBe('XR_ERROR_HANDLE_INVALID');
  } finally {
    instance.destroy();
  }
}

/**
 * On `instance` (created with VK_LAYER_KHRONOS_validation and VK_EXT_debug_utils): a device of one
 * queue, vkGetDeviceQueue for queue 5 of it; the messageIdNames of the errors the messenger heard.
 * The instance is destroyed.
 */
export function plantVulkanValidationError(instance: VulkanInstance): string[] {
  try {
    instance.startDebugMessenger();
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const commands = vulkanCommands(device);
    commands.vkGetDeviceQueue(commands.deviceHandle!, 0, 5);
    return instance.takeDebugMessages().filter((m) => (m.severity & 0x1000) !== 0).map((m) => m.messageIdName);
  } finally {
    instance.destroy();
  }
}
