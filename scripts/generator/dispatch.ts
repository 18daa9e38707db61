// Emits the C++ dispatch header: tables with one function pointer per command, fill functions,
// get/set by index, command metadata and a name -> index lookup.
import { bannerText, type ApiConfig } from './apis.js';
import { tableOf, type DispatchCommand } from './commands.js';
import type { Selection } from './select.js';

/** Byte-wise order, the same as std::string_view's compare, so the C++ binary search agrees. */
function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface TableSpec {
  /** Struct name, e.g. XrDispatchTable or VkDeviceDispatchTable. */
  readonly struct: string;
  /** Suffix of the helper functions: getXrCommand / getVkDeviceCommand... */
  readonly helper: string;
  readonly commands: readonly DispatchCommand[];
}

function emitTable(cfg: ApiConfig, spec: TableSpec, out: string[]): void {
  const voidFn = `PFN_${cfg.commandPrefix}VoidFunction`;
  out.push(`/** ${spec.commands.length} commands; member order is the metadata index. */`);
  out.push(`struct ${spec.struct} {`);
  for (const c of spec.commands) out.push(`    PFN_${c.name} ${c.member};`);
  out.push('};', '');
  out.push(`inline constexpr std::uint32_t k${spec.struct}Size = ${spec.commands.length};`, '');
  out.push(`/** The command at \`index\` as a void function pointer; null for an index out of range. */`);
  out.push(`inline ${voidFn} get${spec.helper}Command(const ${spec.struct}& table, std::uint32_t index) noexcept {`);
  out.push('    switch (index) {');
  for (const c of spec.commands) {
    out.push(`    case ${c.index}: return reinterpret_cast<${voidFn}>(table.${c.member});`);
  }
  out.push('    default: return nullptr;', '    }', '}', '');
  out.push(`/** Stores \`fn\` as the command at \`index\`; returns false for an index out of range. */`);
  out.push(`inline bool set${spec.helper}Command(${spec.struct}& table, std::uint32_t index, ${voidFn} fn) noexcept {`);
  out.push('    switch (index) {');
  for (const c of spec.commands) {
    out.push(`    case ${c.index}: table.${c.member} = reinterpret_cast<PFN_${c.name}>(fn); return true;`);
  }
  out.push('    default: return false;', '    }', '}', '');
}

function cString(s: string): string {
  return `"${s}"`;
}

function emitLookup(infoType: string, arrayName: string, fnName: string, commands: readonly DispatchCommand[], out: string[]): void {
  const sorted = commands.map((c, i) => ({ name: c.name, i })).sort((a, b) => byteCompare(a.name, b.name));
  out.push(`/** Positions in ${arrayName}, sorted by command name for binary search. */`);
  out.push(`inline constexpr std::array<std::uint16_t, ${commands.length}> ${arrayName}ByName{{`);
  for (let i = 0; i < sorted.length; i += 16) {
    out.push(`    ${sorted.slice(i, i + 16).map((s) => s.i).join(', ')},`);
  }
  out.push('}};', '');
  out.push(`/** The ${infoType} of a command, or nullptr when the name is not a command known here. O(log n). */`);
  out.push(`constexpr const ${infoType}* ${fnName}(std::string_view name) noexcept {`);
  out.push('    std::size_t lo = 0;');
  out.push(`    std::size_t hi = ${arrayName}ByName.size();`);
  out.push('    while (lo < hi) {');
  out.push('        const std::size_t mid = lo + (hi - lo) / 2;');
  out.push(`        const ${infoType}& info = ${arrayName}[${arrayName}ByName[mid]];`);
  out.push('        const int cmp = std::string_view(info.name).compare(name);');
  out.push('        if (cmp == 0) return &info;');
  out.push('        if (cmp < 0) lo = mid + 1; else hi = mid;');
  out.push('    }');
  out.push('    return nullptr;');
  out.push('}', '');
}

/**
 * An X-macro over every command with its signature, so native code can stamp out forwarding
 * functions (trampolines, pass-through layers) without restating 500 prototypes:
 * X(name, member, returnType, (parameter declarations), (argument names)).
 */
function emitSignatureMacro(macro: string, commands: readonly DispatchCommand[], out: string[]): void {
  out.push(`/** ${macro}(X): X(name, member, returnType, (parameter declarations), (argument names)) per command. */`);
  out.push(`#define ${macro}(X) \\`);
  for (const c of commands) {
    const decls = c.params.map((p) => p.text).join(', ');
    const names = c.params.map((p) => p.name).join(', ');
    out.push(`    X(${c.name}, ${c.member}, ${c.returnType}, (${decls}), (${names})) \\`);
  }
  out.push('', '');
}

function prologue(cfg: ApiConfig, sel: Selection, out: string[]): void {
  out.push(`// ${bannerText(cfg, sel.registry)}`);
  out.push('// C++20. Everything is in namespace khronos_loader::generated.');
  out.push('#pragma once', '');
  out.push('#include <array>', '#include <cstddef>', '#include <cstdint>', '#include <string_view>', '');
  out.push(`#include "${cfg.typesHeader}"`, '');
  out.push('namespace khronos_loader::generated {', '');
}

function epilogue(out: string[]): string {
  out.push('} // namespace khronos_loader::generated', '');
  return out.join('\n');
}

export function emitOpenXrCommands(cfg: ApiConfig, sel: Selection, commands: readonly DispatchCommand[]): string {
  const out: string[] = [];
  prologue(cfg, sel, out);
  out.push('/** Facts about one command of XrDispatchTable. */');
  out.push('struct XrCommandInfo {');
  out.push('    const char* name;        // e.g. "xrCreateInstance"');
  out.push('    std::uint32_t index;     // position in XrDispatchTable and in kXrCommands');
  out.push('    const char* requiredBy;  // "XR_VERSION_1_0", "XR_VERSION_1_1" or the extension name');
  out.push('    bool isCore;');
  out.push('    bool needsInstance;      // false: xrGetInstanceProcAddr(XR_NULL_HANDLE, name) resolves it');
  out.push('};', '');
  emitTable(cfg, { struct: 'XrDispatchTable', helper: 'Xr', commands }, out);
  out.push(`inline constexpr std::array<XrCommandInfo, ${commands.length}> kXrCommands{{`);
  for (const c of commands) {
    out.push(`    {${cString(c.name)}, ${c.index}, ${cString(c.requiredBy)}, ${c.isCore}, ${c.needsInstance}},`);
  }
  out.push('}};', '');
  emitLookup('XrCommandInfo', 'kXrCommands', 'findXrCommand', commands, out);
  emitSignatureMacro('KL_XR_COMMAND_SIGNATURES', commands, out);
  out.push('/**');
  out.push(' * Fills every member by calling `getInstanceProcAddr(instance, name, ...)`; a member whose');
  out.push(' * lookup fails stays null. With XR_NULL_HANDLE only the needsInstance == false commands resolve.');
  out.push(' */');
  out.push('inline void fillXrDispatchTable(XrDispatchTable& table, PFN_xrGetInstanceProcAddr getInstanceProcAddr,');
  out.push('                                XrInstance instance) noexcept {');
  out.push('    table = XrDispatchTable{};');
  out.push('    for (const XrCommandInfo& info : kXrCommands) {');
  out.push('        PFN_xrVoidFunction fn = nullptr;');
  out.push('        if (XR_SUCCEEDED(getInstanceProcAddr(instance, info.name, &fn)) && fn != nullptr) {');
  out.push('            setXrCommand(table, info.index, fn);');
  out.push('        }');
  out.push('    }');
  out.push('}', '');
  return epilogue(out);
}

export function emitVulkanCommands(cfg: ApiConfig, sel: Selection, commands: readonly DispatchCommand[]): string {
  const out: string[] = [];
  prologue(cfg, sel, out);
  out.push('/** Where a command dispatches, from its first parameter. */');
  out.push('enum class VkCommandLevel : std::uint8_t {');
  out.push('    Global,          // no dispatchable first parameter (and vkGetInstanceProcAddr)');
  out.push('    Instance,        // VkInstance');
  out.push('    PhysicalDevice,  // VkPhysicalDevice; lives in VkInstanceDispatchTable');
  out.push('    Device,          // VkDevice, VkQueue, VkCommandBuffer and other device-child dispatchable handles');
  out.push('};', '');
  out.push('/** Facts about one Vulkan command. */');
  out.push('struct VkCommandInfo {');
  out.push('    const char* name;           // e.g. "vkCreateDevice"');
  out.push('    VkCommandLevel level;');
  out.push('    std::uint32_t index;        // position in the level\'s table (global, instance or device)');
  out.push('    const char* requiredBy;     // "VK_VERSION_1_x" or the extension name that first requires it');
  out.push('    bool isCore;');
  out.push('    const char* extensionType;  // "instance" or "device" for extension commands, "" for core');
  out.push('    const char* aliasOf;        // the command this one aliases, "" if none');
  out.push('};', '');
  const levelName: Record<string, string> = {
    global: 'Global',
    instance: 'Instance',
    physicalDevice: 'PhysicalDevice',
    device: 'Device',
  };
  const tables = [
    { struct: 'VkGlobalDispatchTable', helper: 'VkGlobal', table: 'global' },
    { struct: 'VkInstanceDispatchTable', helper: 'VkInstance', table: 'instance' },
    { struct: 'VkDeviceDispatchTable', helper: 'VkDevice', table: 'device' },
  ] as const;
  for (const t of tables) {
    emitTable(cfg, { struct: t.struct, helper: t.helper, commands: commands.filter((c) => tableOf(c.level) === t.table) }, out);
  }
  out.push(`/** Every command, in registry order (core versions, then extensions). */`);
  out.push(`inline constexpr std::array<VkCommandInfo, ${commands.length}> kVkCommands{{`);
  for (const c of commands) {
    out.push(
      `    {${cString(c.name)}, VkCommandLevel::${levelName[c.level] ?? 'Global'}, ${c.index}, ${cString(c.requiredBy)}, ${c.isCore}, ${cString(c.extensionType)}, ${cString(c.aliasOf)}},`,
    );
  }
  out.push('}};', '');
  emitLookup('VkCommandInfo', 'kVkCommands', 'findVkCommand', commands, out);
  for (const t of tables) {
    const macro = `KL_VK_${t.table.toUpperCase()}_COMMAND_SIGNATURES`;
    emitSignatureMacro(macro, commands.filter((c) => tableOf(c.level) === t.table), out);
  }
  // The core commands alone: what a loader library exports as C functions (extension commands are
  // reached through vkGetInstanceProcAddr / vkGetDeviceProcAddr).
  for (const t of tables) {
    const macro = `KL_VK_CORE_${t.table.toUpperCase()}_COMMAND_SIGNATURES`;
    emitSignatureMacro(macro, commands.filter((c) => tableOf(c.level) === t.table && c.isCore), out);
  }
  out.push('/** Fills the global commands with `getInstanceProcAddr(NULL, name)`; failures stay null. */');
  out.push('inline void fillVkGlobalDispatchTable(VkGlobalDispatchTable& table, PFN_vkGetInstanceProcAddr getInstanceProcAddr) noexcept {');
  out.push('    table = VkGlobalDispatchTable{};');
  out.push('    for (const VkCommandInfo& info : kVkCommands) {');
  out.push('        if (info.level == VkCommandLevel::Global) setVkGlobalCommand(table, info.index, getInstanceProcAddr(nullptr, info.name));');
  out.push('    }');
  out.push('}', '');
  out.push('/** Fills the instance and physical-device commands with `getInstanceProcAddr(instance, name)`. */');
  out.push('inline void fillVkInstanceDispatchTable(VkInstanceDispatchTable& table, PFN_vkGetInstanceProcAddr getInstanceProcAddr,');
  out.push('                                        VkInstance instance) noexcept {');
  out.push('    table = VkInstanceDispatchTable{};');
  out.push('    for (const VkCommandInfo& info : kVkCommands) {');
  out.push('        if (info.level == VkCommandLevel::Instance || info.level == VkCommandLevel::PhysicalDevice) {');
  out.push('            setVkInstanceCommand(table, info.index, getInstanceProcAddr(instance, info.name));');
  out.push('        }');
  out.push('    }');
  out.push('}', '');
  out.push('/** Fills the device commands with `getDeviceProcAddr(device, name)`; failures stay null. */');
  out.push('inline void fillVkDeviceDispatchTable(VkDeviceDispatchTable& table, PFN_vkGetDeviceProcAddr getDeviceProcAddr,');
  out.push('                                      VkDevice device) noexcept {');
  out.push('    table = VkDeviceDispatchTable{};');
  out.push('    for (const VkCommandInfo& info : kVkCommands) {');
  out.push('        if (info.level == VkCommandLevel::Device) setVkDeviceCommand(table, info.index, getDeviceProcAddr(device, info.name));');
  out.push('    }');
  out.push('}', '');
  return epilogue(out);
}
