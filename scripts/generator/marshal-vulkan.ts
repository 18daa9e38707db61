// The model behind the generated Vulkan bindings (vulkanCommands): the same classification as
// OpenXR's (marshal-model.ts) over Vulkan 1.0-1.4 and the KHR and EXT extensions of vk.xml, with
// Vulkan's own facts: sType/pNext, unions, enums accepted by name, the in/out count of the
// two-call idiom, handle types with their parents and the command that destroys each.
import type { DispatchCommand } from './commands.js';
import {
  classify,
  thunkClass,
  type MarshalCommand,
  type MarshalEnumGroup,
  type MarshalHandleType,
  type MarshalModel,
  type MarshalStruct,
} from './marshal-model.js';
import type { Registry, RegistryType, RequireBlock } from './registry.js';
import type { Selection } from './select.js';

/** The extensions the generated Vulkan bindings cover: Khronos (KHR) and multi-vendor (EXT). */
export const VULKAN_BINDING_EXTENSION = /^VK_(KHR|EXT)_/;

/** Handle types whose objects their parent's destroy (or reset) frees: no destroy of their own. */
const FREED_WITH_PARENT = new Set(['VkCommandBuffer', 'VkDescriptorSet']);

/** The destroy command of a handle type, by the registry's naming (vkDestroyBuffer, vkFreeMemory). */
function destroyCommandName(handle: string): string {
  if (handle === 'VkDeviceMemory') return 'vkFreeMemory';
  return `vkDestroy${handle.slice(2)}`;
}

function resolveType(reg: Registry, name: string): RegistryType | undefined {
  let t = reg.types.get(name);
  for (let i = 0; t?.alias !== undefined && i < 4; i++) t = reg.types.get(t.alias);
  return t;
}

/** The units (core features, KHR/EXT extensions) the bindings cover, with the blocks they require. */
export function vulkanBindingUnits(sel: Selection): { readonly name: string; readonly core: boolean; readonly requires: readonly RequireBlock[] }[] {
  return [
    ...sel.features.map((f) => ({ name: f.name, core: true, requires: f.requires })),
    ...sel.extensions.filter((e) => VULKAN_BINDING_EXTENSION.test(e.name) && !e.provisional).map((e) => ({ name: e.name, core: false, requires: e.requires })),
  ];
}

export function buildVulkanMarshalModel(sel: Selection, dispatch: readonly DispatchCommand[]): MarshalModel {
  const reg = sel.registry;
  const units = vulkanBindingUnits(sel);
  // The structures and unions the covered units name, with what they contain and point to.
  const wanted = new Set<string>();
  const visit = (name: string): void => {
    const t = resolveType(reg, name);
    if (t === undefined || wanted.has(t.name) || !sel.types.has(t.name)) return;
    if (t.category !== 'struct' && t.category !== 'union') return;
    wanted.add(t.name);
    for (const m of t.members) visit(m.typeName);
  };
  const commandExtensions = new Map<string, string[]>();
  const coreCommands = new Set<string>();
  for (const u of units) {
    for (const b of u.requires) {
      for (const t of b.types) visit(t);
      for (const c of b.commands) {
        if (u.core) coreCommands.add(c);
        else commandExtensions.set(c, [...(commandExtensions.get(c) ?? []), u.name]);
        const cmd = reg.commands.get(c);
        const target = cmd?.alias === undefined ? cmd : reg.commands.get(cmd.alias);
        for (const p of target?.params ?? []) visit(p.typeName);
      }
    }
  }
  const structTypes = [...wanted].map((n) => reg.types.get(n)).filter((t): t is RegistryType => t !== undefined).sort((a, b) => a.order - b.order);
  const structIndex = new Map(structTypes.map((t, i) => [t.name, i]));
  for (const t of reg.types.values()) {
    if ((t.category === 'struct' || t.category === 'union') && t.alias !== undefined) {
      const target = structIndex.get(resolveType(reg, t.name)?.name ?? '');
      if (target !== undefined) structIndex.set(t.name, target);
    }
  }

  // Enum groups and handle types, numbered as the tables number them.
  const enumGroups: MarshalEnumGroup[] = [];
  const enumIndex = new Map<string, number>();
  const handleTypes: { name: string; dispatchable: boolean; parents: string[] }[] = [];
  const handleIndex = new Map<string, number>();
  for (const t of [...reg.types.values()].sort((a, b) => a.order - b.order)) {
    if (!sel.types.has(t.name)) continue;
    if (t.category === 'enum' && t.alias === undefined && reg.enumGroups.get(t.name)?.bitwidth !== 64) {
      const values = (sel.groupValues.get(t.name) ?? []).filter((v) => v.numeric !== undefined).map((v) => ({ name: v.name, value: Number(v.numeric) }));
      enumIndex.set(t.name, enumGroups.length);
      enumGroups.push({ name: t.name, values });
    }
    if (t.category === 'handle' && t.alias === undefined) {
      handleIndex.set(t.name, handleTypes.length);
      handleTypes.push({ name: t.name, dispatchable: /\bVK_DEFINE_HANDLE\s*\(/.test(t.text), parents: (t.parent ?? '').split(',').filter((p) => p !== '') });
    }
  }
  for (const t of reg.types.values()) {
    if (t.alias === undefined) continue;
    const target = resolveType(reg, t.name)?.name ?? '';
    if (enumIndex.has(target)) enumIndex.set(t.name, enumIndex.get(target) ?? -1);
    if (handleIndex.has(target)) handleIndex.set(t.name, handleIndex.get(target) ?? -1);
  }
  const options = { api: 'vulkan' as const, enumIndex, handleIndex, membersOf: (i: number) => structTypes[i]?.members ?? [] };

  const typeValues = new Map((sel.groupValues.get('VkStructureType') ?? []).map((v) => [v.name, Number(v.numeric ?? 0)]));
  const extenders = new Map<string, number[]>();
  structTypes.forEach((t, i) => {
    for (const base of t.structExtends) {
      const b = resolveType(reg, base)?.name ?? base;
      if (!structIndex.has(b)) continue;
      extenders.set(b, [...(extenders.get(b) ?? []), i]);
    }
  });
  const structs: MarshalStruct[] = structTypes.map((t, index) => {
    const structureType = t.members.find((m) => m.name === 'sType' && m.typeName === 'VkStructureType')?.values;
    return {
      name: t.name,
      index,
      structureType,
      structureTypeValue: structureType === undefined ? 0 : (typeValues.get(structureType) ?? 0),
      fields: classify(sel, t.name, t.members, structIndex, false, undefined, options),
      extenders: extenders.get(t.name) ?? [],
      returnedOnly: t.returnedOnly,
      children: [],
      definedBy: '',
      isUnion: t.category === 'union',
    };
  });

  const thunkKeys: string[] = [];
  const commands: MarshalCommand[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const d of dispatch) {
    const extensions = commandExtensions.get(d.name) ?? [];
    if (!coreCommands.has(d.name) && extensions.length === 0) continue;
    const params = classify(sel, d.name, d.params, structIndex, true, undefined, options);
    const key = `${returnClass(d.returnType)}:${params.map((p) => thunkClass(p, reg)).join(',')}`;
    let thunk = thunkKeys.indexOf(key);
    if (thunk < 0) {
      thunk = thunkKeys.length;
      thunkKeys.push(key);
    }
    const last = params[params.length - 1];
    const signature = reg.commands.get(d.aliasOf === '' ? d.name : d.aliasOf);
    commands.push({
      name: d.name,
      dispatchIndex: d.index,
      params,
      extensions: coreCommands.has(d.name) ? [] : extensions,
      coreVersion: coreCommands.has(d.name) ? d.requiredBy : undefined,
      thunk,
      createsHandle: last !== undefined && last.output && last.scalar === 'Handle',
      destroysHandle: /^vk(Destroy|Free)/.test(d.name),
      successCodes: signature?.successCodes ?? [],
      returnType: d.returnType,
      level: d.level,
    });
  }
  const commandIndex = new Map(commands.map((c, i) => [c.name, i]));
  const handles: MarshalHandleType[] = handleTypes.map((h) => ({
    name: h.name,
    dispatchable: h.dispatchable,
    parents: h.parents,
    destroyCommand: FREED_WITH_PARENT.has(h.name) ? -1 : (commandIndex.get(destroyCommandName(h.name)) ?? -1),
    freedWithParent: FREED_WITH_PARENT.has(h.name),
  }));
  return { structs, commands, thunks: thunkKeys, skipped, enumGroups, handleTypes: handles };
}

/** A command's return in its thunk: v void, r VkResult, u 32-bit, q 64-bit, p pointer. */
export function returnClass(returnType: string): string {
  switch (returnType) {
    case 'void':
      return 'v';
    case 'VkResult':
      return 'r';
    case 'VkBool32':
    case 'uint32_t':
      return 'u';
    case 'PFN_vkVoidFunction':
      return 'p';
    default:
      return 'q';
  }
}
