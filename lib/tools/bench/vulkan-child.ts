// A Vulkan bench child process: `node [--import tsx] vulkan-child.(ts|js) '<request JSON>'`. Its
// environment (set by the parent) chooses the driver and layers (VK_DRIVER_FILES, VK_LAYER_PATH,
// VK_INSTANCE_LAYERS). It sets up each loader it is asked for — this package's (discovery and policy
// over that environment, the plan published for the exported vkCreateInstance) and the Khronos
// loader (dlopened) — in one process, so both chains call the very same driver and layer code, and
// times them with the same native loop, their runs interleaved.
import { publishVulkanPlan } from '../../vulkan/api/instance.js';
import { createLoader } from '../../vulkan/loader.js';
import { loadToolsAddon, type NativeVulkanBenchScenario } from '../native/addon.js';
import { runChildMain } from './child-process.js';
import { measureNativeInterleaved, sideBySideCells } from './measure-native.js';
import type { VulkanBenchSide, VulkanChildRequest, VulkanChildResult, VulkanSideResult } from './vulkan-child-protocol.js';

function run(request: VulkanChildRequest): VulkanChildResult {
  if (request.sides.length === 0 || request.sides.length > 2 || new Set(request.sides).size !== request.sides.length) {
    return { ok: false, error: `vulkan-child: sides must be one or two different loaders, got ${JSON.stringify(request.sides)}` };
  }
  const Scenario = loadToolsAddon().VulkanBenchScenario;
  const scenarios = new Map<VulkanBenchSide, NativeVulkanBenchScenario>();
  const sides: Partial<Record<VulkanBenchSide, VulkanSideResult>> = {};
  let layerNames: string[] | undefined;
  const display = request.display !== undefined ? { display: request.display } : {};
  try {
    for (const [index, side] of request.sides.entries()) {
      // Each loader its own copy of the timed loops (native/tools/bench/vulkan_bench.cc says why).
      const timingLoop = index === 0 ? 0 : 1;
      try {
        if (side === 'ours') {
          const plan = createLoader().planInstance({});
          layerNames = plan.layers.map((l) => l.name);
          publishVulkanPlan(plan);
          scenarios.set(side, new Scenario({ command: request.command, timingLoop, ...display }));
        } else if (request.khronosLibrary === undefined) {
          sides[side] = { ok: false, error: 'vulkan-child: the khronos side needs khronosLibrary' };
        } else {
          scenarios.set(side, new Scenario({ command: request.command, loaderLibrary: request.khronosLibrary, timingLoop, ...display }));
        }
      } catch (error) {
        sides[side] = { ok: false, error: `vulkan-child: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    const timed = request.sides.filter((s) => scenarios.has(s));
    const measured = measureNativeInterleaved(sideBySideCells(timed.map((side) => ({ side, scenario: scenarios.get(side)! }))), request.plan);
    let deviceName: string | undefined;
    let presentMode: string | undefined;
    for (const side of timed) {
      const scenario = scenarios.get(side)!;
      deviceName ??= scenario.deviceName;
      if (scenario.presentMode !== '') presentMode ??= scenario.presentMode;
      sides[side] = {
        ok: true,
        trampoline: measured[`${side}-trampoline`],
        pointer: measured[`${side}-pointer`],
        pointerOrigin: scenario.pointerOrigin,
        loaderFile: scenario.loaderOrigin?.file ?? null,
      };
    }
    return {
      ok: true,
      ...(layerNames !== undefined ? { layerNames } : {}),
      ...(deviceName !== undefined ? { deviceName } : {}),
      ...(presentMode !== undefined ? { presentMode } : {}),
      sides,
    };
  } finally {
    for (const scenario of [...scenarios.values()].reverse()) scenario.destroy();
  }
}

runChildMain<VulkanChildRequest, VulkanChildResult>(run, (error) => ({ ok: false, error: `vulkan-child: ${error}` }));
