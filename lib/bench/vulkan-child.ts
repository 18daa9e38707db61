// A Vulkan bench side in a child process: `node [--import tsx] vulkan-child.(ts|js) '<request JSON>'`.
// Its environment (set by the parent) chooses the driver and layers (VK_DRIVER_FILES, VK_LAYER_PATH,
// VK_INSTANCE_LAYERS) for whichever loader it runs: this package's (discovery and policy over that
// environment, the plan published for the exported vkCreateInstance) or the Khronos loader
// (dlopened). Both sides set up and time through the loader's exports with the same native loop.
import { publishVulkanPlan } from '../vulkan/api/instance.js';
import { createLoader } from '../vulkan/loader.js';
import { loadNativeAddon } from '../native.js';
import { runChildMain } from './child-process.js';
import { measureNativePair } from './measure-native.js';
import type { VulkanChildRequest, VulkanChildResult } from './vulkan-child-protocol.js';

function run(request: VulkanChildRequest): VulkanChildResult {
  let layerNames: string[] | undefined;
  if (request.side === 'ours') {
    const plan = createLoader().planInstance({});
    layerNames = plan.layers.map((l) => l.name);
    publishVulkanPlan(plan);
  } else if (request.libraryPath === undefined) {
    return { ok: false, error: 'vulkan-child: the khronos side needs libraryPath' };
  }
  const scenario = new (loadNativeAddon().VulkanBenchScenario)({
    command: request.command,
    ...(request.side === 'khronos' && request.libraryPath !== undefined ? { loaderLibrary: request.libraryPath } : {}),
  });
  try {
    const { trampoline, pointer } = measureNativePair(scenario, request.plan);
    return {
      ok: true,
      ...(layerNames !== undefined ? { layerNames } : {}),
      deviceName: scenario.deviceName,
      trampoline,
      pointer,
      pointerOrigin: scenario.pointerOrigin,
      loaderFile: scenario.loaderOrigin?.file ?? null,
    };
  } finally {
    scenario.destroy();
  }
}

runChildMain<VulkanChildRequest, VulkanChildResult>(run, (error) => ({ ok: false, error: `vulkan-child: ${error}` }));
