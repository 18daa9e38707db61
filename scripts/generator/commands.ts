// The commands that go into dispatch tables, with the facts the loader needs about each one.
import type { ApiConfig } from './apis.js';
import type { Declaration, Registry } from './registry.js';
import type { Selection } from './select.js';

/** Where a command is dispatched: Vulkan splits by its dispatchable first parameter. */
export type CommandLevel = 'global' | 'instance' | 'physicalDevice' | 'device';

export interface DispatchCommand {
  readonly name: string;
  /** Member name in the dispatch table: the name without its xr/vk prefix. */
  readonly member: string;
  readonly level: CommandLevel;
  /** Position in its table (OpenXR has one table; Vulkan one per global/instance/device). */
  readonly index: number;
  /** The core version (XR_VERSION_1_0, VK_VERSION_1_1...) or the extension that first requires it. */
  readonly requiredBy: string;
  readonly isCore: boolean;
  /** 'instance' or 'device' for commands that come from an extension, '' for core. */
  readonly extensionType: string;
  /** The command this one is an alias of, '' when it is not an alias. */
  readonly aliasOf: string;
  /** OpenXR: false for the commands xrGetInstanceProcAddr returns for XR_NULL_HANDLE. */
  readonly needsInstance: boolean;
  /** The C return type and parameters (an alias's target's), for code that forwards calls. */
  readonly returnType: string;
  readonly params: readonly Declaration[];
}

/** OpenXR commands that xrGetInstanceProcAddr resolves without an instance. */
const XR_NULL_INSTANCE_COMMANDS = new Set([
  'xrEnumerateApiLayerProperties',
  'xrEnumerateInstanceExtensionProperties',
  'xrCreateInstance',
  'xrInitializeLoaderKHR',
]);

/**
 * The loader negotiation functions are exported symbols the loader calls directly (and
 * xrCreateApiLayerInstance is reached through the negotiation structs), never through a table.
 */
const XR_NOT_DISPATCHED_FEATURES = new Set(['XR_LOADER_VERSION_1_0']);

/** Vulkan commands that take a dispatchable first parameter but are still global. */
const VK_GLOBAL_COMMANDS = new Set(['vkGetInstanceProcAddr']);

/** Dispatchable handles are the ones declared with VK_DEFINE_HANDLE (pointers with a dispatch table). */
function isDispatchableHandle(reg: Registry, typeName: string): boolean {
  const t = reg.types.get(typeName);
  return t?.category === 'handle' && /\bVK_DEFINE_HANDLE\s*\(/.test(t.text);
}

function vulkanLevel(reg: Registry, name: string, firstParamType: string | undefined): CommandLevel {
  if (VK_GLOBAL_COMMANDS.has(name) || firstParamType === undefined) return 'global';
  if (firstParamType === 'VkInstance') return 'instance';
  if (firstParamType === 'VkPhysicalDevice') return 'physicalDevice';
  // VkDevice, VkQueue, VkCommandBuffer and device children such as VkExternalComputeQueueNV.
  return isDispatchableHandle(reg, firstParamType) ? 'device' : 'global';
}

/** The table a level's commands live in: physical-device commands share the instance table. */
export function tableOf(level: CommandLevel): 'global' | 'instance' | 'device' {
  return level === 'physicalDevice' ? 'instance' : level;
}

export function dispatchCommands(cfg: ApiConfig, sel: Selection): DispatchCommand[] {
  const counters = new Map<string, number>();
  const out: DispatchCommand[] = [];
  for (const c of sel.commands) {
    if (cfg.api === 'openxr' && XR_NOT_DISPATCHED_FEATURES.has(c.requiredByUnit)) continue;
    const level: CommandLevel =
      cfg.api === 'openxr' ? 'instance' : vulkanLevel(sel.registry, c.name, c.signature.params[0]?.typeName);
    const table = cfg.api === 'openxr' ? 'instance' : tableOf(level);
    const index = counters.get(table) ?? 0;
    counters.set(table, index + 1);
    out.push({
      name: c.name,
      member: c.name.slice(cfg.commandPrefix.length),
      level,
      index,
      requiredBy: c.requiredBy,
      isCore: c.extension === undefined,
      extensionType: c.extension?.type ?? '',
      aliasOf: c.aliasOf ?? '',
      needsInstance: cfg.api === 'openxr' ? !XR_NULL_INSTANCE_COMMANDS.has(c.name) : level !== 'global',
      returnType: c.signature.returnType,
      params: c.signature.params,
    });
  }
  return out;
}
