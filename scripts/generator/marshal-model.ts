// The model behind the generated OpenXR bindings: for every selected structure its fields and for
// every command its parameters, each classified once (scalar kind, shape, array/count pairs,
// strings, handles, nested structures, next chains) so the native tables, the TypeScript types
// and the layout check all come from the same facts.
import type { DispatchCommand } from './commands.js';
import type { Declaration, Registry, RegistryType } from './registry.js';
import type { Selection } from './select.js';

/** How one value is stored: the native marshaller's scalar kinds. */
export type ScalarKind =
  | 'None'
  | 'Bool32'
  | 'U8'
  | 'I8'
  | 'U16'
  | 'I16'
  | 'U32'
  | 'I32'
  | 'U64'
  | 'I64'
  | 'F32'
  | 'F64'
  | 'Enum'
  | 'Handle'
  | 'Char'
  | 'Address';

/** How a member or parameter is laid out around its scalar or structure. */
export type Shape =
  /** The `type` member: written from the table, never read from JavaScript. */
  | 'StructureType'
  /** The `next` member: a chain of structures the registry allows to extend this one. */
  | 'Next'
  /** A scalar or a nested structure in place; `fixedCount` > 1: a fixed array (char: a string). */
  | 'Value'
  /** `const char*`. */
  | 'String'
  /** `const char* const*` with a count. */
  | 'StringArray'
  /** `T*` with a count member/parameter (`lenIndex`). */
  | 'Array'
  /** `const T* const*` with a count: pointers to (polymorphic) structures. */
  | 'PointerArray'
  /** `T*` to one value (a structure, or a scalar), no count. */
  | 'Pointer'
  /** The count of an array: filled from the array's length, hidden from JavaScript. */
  | 'Count'
  /** Two-call idiom: the capacity of `lenIndex`'s... array (hidden). */
  | 'Capacity'
  /** Two-call idiom: the count the runtime writes (hidden; the array carries it). */
  | 'CountOutput'
  /** Function pointers: marshalled as null only. */
  | 'Unsupported';

export interface MarshalField {
  readonly name: string;
  readonly decl: Declaration;
  readonly scalar: ScalarKind;
  readonly shape: Shape;
  /** Index of the nested or pointed-to structure in the struct table, -1 for none. */
  readonly struct: number;
  /** Fixed array length (1 when not an array; for char arrays the buffer size). */
  readonly fixedCount: number;
  /** The C expression of the fixed array length, for the layout check and comments. */
  readonly fixedCountText: string;
  /** For Array/StringArray/PointerArray/Capacity: the count member/parameter; for Count: the array. */
  readonly lenIndex: number;
  /** For a two-call array: its CountOutput member/parameter. */
  readonly countOutputIndex: number;
  /** Optional in the registry (may be omitted / null). */
  readonly optional: boolean;
  /** Commands: the parameter is written by the runtime (non-const pointer). */
  readonly output: boolean;
  /** Element size in bytes of pointed-to scalars (structures take the struct table's size). */
  readonly elementType: string;
  /** Enum: its group in MarshalModel.enumGroups; Handle: its type in MarshalModel.handleTypes; -1 otherwise. */
  readonly typeIndex: number;
  /** An array whose length is a member of another parameter (`pAllocateInfo->commandBufferCount`): that member's index in the parameter's structure. */
  readonly lenMember: number;
  /** The count holds the array's size in bytes, not its element count (`codeSize` for `pCode`). */
  readonly lenBytes: boolean;
  /** A command's output array sized by a count an input array sets (`pPipelines` by `pCreateInfos`): no argument. */
  readonly sizedBySibling: boolean;
  /** Unsupported and required (a function pointer the structure cannot work without): refused when absent. */
  readonly required: boolean;
}

export interface MarshalStruct {
  readonly name: string;
  readonly index: number;
  /** The XrStructureType value name, or undefined for structures without a `type` member. */
  readonly structureType: string | undefined;
  readonly structureTypeValue: number;
  readonly fields: readonly MarshalField[];
  /** Indices of the structures that may appear in this one's next chain. */
  readonly extenders: readonly number[];
  readonly returnedOnly: boolean;
  /** Structures that specialize this base header (`parentstruct`): what a pointer to it may hold. */
  readonly children: readonly number[];
  /** The unit (XR_VERSION_1_0, an extension) whose C header section defines it. */
  readonly definedBy: string;
  /** A C union: the JavaScript object names exactly one member. */
  readonly isUnion: boolean;
}

export interface MarshalCommand {
  readonly name: string;
  readonly dispatchIndex: number;
  readonly params: readonly MarshalField[];
  /** Every extension that requires the command; empty for core commands. */
  readonly extensions: readonly string[];
  /** XR_VERSION_1_0 or XR_VERSION_1_1 for core commands. */
  readonly coreVersion: string | undefined;
  /** The parameter class string of its call thunk (see thunkKey). */
  readonly thunk: number;
  /** The last parameter receives a new handle / the first is destroyed. */
  readonly createsHandle: boolean;
  readonly destroysHandle: boolean;
  readonly successCodes: readonly string[];
  /** The C return type (XrResult, VkResult, void, VkBool32, uint32_t, ...). */
  readonly returnType: string;
  /** Vulkan: where the command is dispatched (global, instance, physicalDevice, device). */
  readonly level: string;
}

/** An enum group the tables name (values accepted by name). */
export interface MarshalEnumGroup {
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly value: number }[];
}

/** A handle type of the tables: what creates it from what, and what destroys it. */
export interface MarshalHandleType {
  readonly name: string;
  readonly dispatchable: boolean;
  /** The registry's parent handle types (VkCommandBuffer: VkCommandPool). */
  readonly parents: readonly string[];
  /** The command index that destroys one (vkDestroyBuffer, vkFreeMemory), -1 when none. */
  readonly destroyCommand: number;
  /** Freed with its parent by the parent's destroy (command buffers, descriptor sets). */
  readonly freedWithParent: boolean;
}

export interface MarshalModel {
  readonly structs: readonly MarshalStruct[];
  readonly commands: readonly MarshalCommand[];
  /** One entry per distinct call signature class (`p` pointer, `u` 32-bit, `q` 64-bit, `f` float, `d` double, `S<struct>` by value). */
  readonly thunks: readonly string[];
  /** Commands left out, with why. */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** Enum groups named by Field.typeIndex (Vulkan; empty for OpenXR). */
  readonly enumGroups: readonly MarshalEnumGroup[];
  /** Handle types named by Field.typeIndex (Vulkan; empty for OpenXR). */
  readonly handleTypes: readonly MarshalHandleType[];
}

/** What differs between the APIs when members are classified. */
export interface ClassifyOptions {
  readonly api: 'openxr' | 'vulkan';
  /** Enum group index by type name (Vulkan). */
  readonly enumIndex?: ReadonlyMap<string, number>;
  /** Handle type index by name (Vulkan). */
  readonly handleIndex?: ReadonlyMap<string, number>;
  /** A structure's member declarations, for `param->member` lengths. */
  readonly membersOf?: (structIndex: number) => readonly Declaration[];
}

const C_SCALARS: Readonly<Record<string, ScalarKind>> = {
  uint8_t: 'U8',
  int8_t: 'I8',
  uint16_t: 'U16',
  int16_t: 'I16',
  uint32_t: 'U32',
  int32_t: 'I32',
  uint64_t: 'U64',
  int64_t: 'I64',
  size_t: 'U64',
  int: 'I32',
  float: 'F32',
  double: 'F64',
  char: 'Char',
  void: 'Address',
};

/** How a type another registry defines (Vulkan's, for XR_KHR_vulkan_enable2) is stored. */
export type ForeignScalar = (typeName: string) => ScalarKind | undefined;

/** How a Vulkan type is stored where an OpenXR structure or command uses it (pointers to Vulkan structures are addresses). */
export function vulkanScalar(vk: Registry, typeName: string): ScalarKind | undefined {
  // PFN_vk<command>: the header derives one per command, the registry lists none.
  if (typeName.startsWith('PFN_vk')) return 'Address';
  const t = vk.types.get(typeName);
  switch (t?.category) {
    case 'handle':
      return 'Handle';
    case 'enum':
      return 'Enum';
    case 'funcpointer':
    case 'struct':
      return 'Address';
    case 'bitmask':
      return /VkFlags64/.test(t.text) ? 'U64' : 'U32';
    case 'basetype':
      return /uint64_t/.test(t.text) ? 'U64' : 'U32';
    default:
      return undefined;
  }
}

/** The scalar kind a registry type name is stored as, or undefined for structures. */
export function scalarOf(reg: Registry, typeName: string, foreign?: ForeignScalar): ScalarKind | undefined {
  const builtin = C_SCALARS[typeName];
  if (builtin !== undefined) return builtin;
  const t = reg.types.get(typeName);
  if (t === undefined) throw new Error(`unknown type ${typeName}`);
  // An alias (VkAccessFlags2KHR) is stored as what it names.
  if (t.alias !== undefined && t.text === '') return scalarOf(reg, t.alias, foreign);
  switch (t.category) {
    case '': {
      const kind = foreign?.(typeName);
      if (kind === undefined) throw new Error(`type ${typeName} comes from ${t.requires ?? 'another header'} and has no marshalling`);
      return kind;
    }
    case 'basetype': {
      if (typeName === 'XrBool32' || typeName === 'VkBool32') return 'Bool32';
      if (/XR_DEFINE_(ATOM|OPAQUE_64)/.test(t.text)) return 'U64';
      const base = /typedef\s+(\w+)/.exec(t.text)?.[1];
      if (base === undefined) throw new Error(`basetype ${typeName}: cannot read its C type`);
      return scalarOf(reg, base);
    }
    case 'bitmask': {
      const base = /typedef\s+(\w+)/.exec(t.text)?.[1] ?? 'XrFlags64';
      return scalarOf(reg, base);
    }
    case 'enum':
      // Vulkan's 64-bit flag bits (VkAccessFlagBits2) are stored as their 64-bit flags.
      return reg.enumGroups.get(typeName)?.bitwidth === 64 ? 'U64' : 'Enum';
    case 'handle':
      return 'Handle';
    case 'funcpointer':
      // A native function's address, as a bigint (another addon's callback, xrGetInstanceProcAddr's answer).
      return 'Address';
    case 'struct':
    case 'union':
      return undefined;
    default:
      throw new Error(`type ${typeName} (category ${t.category}) has no marshalling`);
  }
}

function pointerDepth(decl: Declaration): number {
  return (decl.text.match(/\*/g) ?? []).length;
}

function isConstPointer(decl: Declaration): boolean {
  // `const T*` or `const T* const*`: the pointed-to data is const when `const` precedes the type.
  return /^const\b/.test(decl.text);
}

function constantValue(sel: Selection, name: string): number {
  if (/^[0-9]+$/.test(name)) return Number(name);
  // API constants, or an enum value used as a count (XR_EYE_POSITION_COUNT_FB).
  const c = sel.constants.find((k) => k.name === name) ?? [...sel.groupValues.values()].flat().find((v) => v.name === name);
  if (c?.numeric === undefined) throw new Error(`unknown array size ${name}`);
  return Number(c.numeric);
}

/** Classifies the members of a structure or the parameters of a command. */
export function classify(
  sel: Selection,
  owner: string,
  decls: readonly Declaration[],
  structIndex: ReadonlyMap<string, number>,
  isCommand: boolean,
  foreign: ForeignScalar | undefined,
  options: ClassifyOptions = { api: 'openxr' },
): MarshalField[] {
  const reg = sel.registry;
  const vulkan = options.api === 'vulkan';
  const typeMember = vulkan ? { name: 'sType', type: 'VkStructureType' } : { name: 'type', type: 'XrStructureType' };
  const nextMember = vulkan ? 'pNext' : 'next';
  const byName = new Map(decls.map((d, i) => [d.name, i]));
  const out: MarshalField[] = decls.map((d) => {
    const depth = pointerDepth(d);
    const scalar = scalarOf(reg, d.typeName, foreign) ?? 'None';
    const struct = structIndex.get(d.typeName) ?? -1;
    const category = reg.types.get(d.typeName)?.category;
    const isStruct = category === 'struct' || (vulkan && category === 'union');
    if (isStruct && struct < 0) throw new Error(`${owner}.${d.name}: structure ${d.typeName} is not selected`);
    const lenParts = (d.len ?? '').split(',').filter((p) => p !== '');
    let lenName = lenParts.find((p) => p !== 'null-terminated' && p !== '1');
    let lenMember = -1;
    let lenBytes = false;
    let unsizedArray = false;
    if (vulkan && lenName !== undefined && lenName.startsWith('latexmath:')) {
      // The registry's C form: `codeSize / 4` counts bytes; other expressions size no member.
      const bytes = /^(\w+) \/ \d+$/.exec(d.altlen ?? '');
      lenName = bytes?.[1];
      lenBytes = bytes !== null;
      unsizedArray = bytes === null;
    }
    let lenIndex = lenName === undefined ? -1 : (byName.get(lenName) ?? -2);
    if (vulkan && lenName !== undefined && lenName.includes('->')) {
      const [param, member] = lenName.split('->');
      const p = decls.findIndex((x) => x.name === param);
      const ps = structIndex.get(decls[p]?.typeName ?? '') ?? -1;
      lenMember = ps < 0 ? -1 : (options.membersOf?.(ps) ?? []).findIndex((m) => m.name === member);
      if (p < 0 || lenMember < 0) throw new Error(`${owner}.${d.name}: len ${lenName} names no member`);
      lenIndex = p;
    }
    const fixedCountText = d.arraySizes.join(' * ');
    const fixedCount = d.arraySizes.reduce((n, s) => n * constantValue(sel, s), 1);
    const base = {
      name: d.name,
      decl: d,
      scalar,
      struct,
      fixedCount,
      fixedCountText,
      lenIndex,
      countOutputIndex: -1,
      optional: (d.optional ?? '').startsWith('true'),
      // Vulkan's non-const `void*` with a length and `void**` are written by the driver (vkGetQueryPoolResults' pData, vkMapMemory's ppData).
      output: isCommand && (depth > 0 || d.arraySizes.length > 0) && !isConstPointer(d) && (d.typeName !== 'void' || (vulkan && (depth === 2 || d.len !== undefined))),
      elementType: d.typeName,
      typeIndex: scalar === 'Enum' ? (options.enumIndex?.get(d.typeName) ?? -1) : scalar === 'Handle' ? (options.handleIndex?.get(d.typeName) ?? -1) : -1,
      lenMember,
      lenBytes,
      sizedBySibling: false,
      required: false,
    };
    if (lenIndex === -2) throw new Error(`${owner}.${d.name}: len ${d.len ?? ''} is not a sibling`);
    if (d.name === typeMember.name && d.typeName === typeMember.type && !isCommand) return { ...base, shape: 'StructureType' as Shape };
    if (d.name === nextMember && d.typeName === 'void' && depth === 1 && !isCommand) return { ...base, shape: 'Next' as Shape };
    if (vulkan) {
      // A bit-field has no offsetof; a function pointer is marshalled as null only (no JavaScript
      // callback reaches a driver); VkAllocationCallbacks is nothing but function pointers.
      if (d.bitfield !== undefined) return { ...base, shape: 'Unsupported' as Shape };
      if (category === 'funcpointer' || d.typeName === 'VkAllocationCallbacks') {
        return { ...base, shape: 'Unsupported' as Shape, required: !base.optional && !isCommand };
      }
      if (depth === 1 && unsizedArray) return { ...base, lenIndex: -1, shape: 'Array' as Shape };
      if (depth === 1 && lenMember >= 0) return { ...base, shape: 'Array' as Shape };
    }
    if (scalar === 'None' && struct < 0) return { ...base, shape: 'Unsupported' as Shape };
    if (category === 'funcpointer') return { ...base, shape: (depth === 0 ? 'Value' : 'Pointer') as Shape };
    if (depth === 0) return { ...base, shape: 'Value' as Shape };
    // A command parameter written as an array (`char buffer[XR_MAX_RESULT_STRING_SIZE]`) counts as a pointer.
    if (scalar === 'Char' && depth === 1 && lenParts.includes('null-terminated') && lenIndex < 0) return { ...base, shape: 'String' as Shape };
    if (scalar === 'Char' && depth === 2) return { ...base, shape: 'StringArray' as Shape };
    if (depth === 2 && struct >= 0 && lenIndex >= 0) return { ...base, shape: 'PointerArray' as Shape };
    if (depth === 1 && lenIndex >= 0) return { ...base, shape: 'Array' as Shape };
    if (depth === 1 && scalar === 'Char' && isCommand && d.arraySizes.length > 0) return { ...base, shape: 'Value' as Shape };
    if (depth === 1) return { ...base, shape: (scalar === 'Address' ? 'Value' : 'Pointer') as Shape };
    return { ...base, shape: 'Unsupported' as Shape };
  });
  // Counts and two-call capacities take their shape from the arrays that name them.
  for (let i = 0; i < out.length; i++) {
    const f = out[i];
    if (f === undefined || f.lenIndex < 0 || f.lenMember >= 0 || !['Array', 'StringArray', 'PointerArray'].includes(f.shape)) continue;
    const len = out[f.lenIndex];
    if (len === undefined) continue;
    if (vulkan) {
      if (isCommand && f.output && len.shape === 'Pointer' && len.output) {
        // Vulkan's two-call idiom: one in/out count (capacity in, count out), the array null first.
        out[f.lenIndex] = { ...len, shape: 'CountOutput', lenIndex: i, output: true };
        out[i] = { ...f, countOutputIndex: f.lenIndex };
        continue;
      }
      // A count whose every array is optional means something without them (descriptorCount
      // without immutable samplers, viewportCount with dynamic viewports): it stays an argument,
      // and an array given must have that many elements.
      const arrays = out.filter((a) => a.lenIndex === f.lenIndex && a.lenMember < 0 && ['Array', 'StringArray', 'PointerArray'].includes(a.shape));
      if (len.shape === 'Value' && arrays.every((a) => a.optional) && !f.lenBytes) continue;
      if (isCommand && f.output && arrays.some((a) => !a.output)) out[i] = { ...f, sizedBySibling: true };
    }
    // Two-call idiom: a capacity and the count the runtime writes; a capacity without a count
    // output is a caller-sized array (the runtime fills what it is given).
    const countName = len.name.replace(/CapacityInput$/, 'CountOutput').replace(/InputCapacity$/, 'OutputCount');
    const countOutputIndex = vulkan || countName === len.name ? -1 : out.findIndex((c) => c.name === countName);
    if (countOutputIndex >= 0) {
      out[f.lenIndex] = { ...len, shape: 'Capacity', lenIndex: i, output: false };
      const co = out[countOutputIndex];
      if (co !== undefined) out[countOutputIndex] = { ...co, shape: 'CountOutput', lenIndex: i, output: true };
      out[i] = { ...f, countOutputIndex };
    } else if (len.shape === 'Value' || len.shape === 'Count') {
      out[f.lenIndex] = { ...len, shape: 'Count', lenIndex: len.shape === 'Count' ? len.lenIndex : i };
    } else if (len.shape === 'Pointer' && isCommand) {
      // The length is itself an in/out pointer parameter (rare): treated as a count the array sets.
      out[f.lenIndex] = { ...len, shape: 'Count', lenIndex: i };
    }
  }
  if (vulkan) {
    // An input array whose count may be 0 may be left out, and so may one of a structure's arrays
    // that share a count (VkWriteDescriptorSet's pImageInfo, pBufferInfo, pTexelBufferView): another sets it.
    out.forEach((f, i) => {
      const len = out[f.lenIndex];
      if (f.lenIndex < 0 || f.lenMember >= 0 || f.output || len === undefined || len.shape !== 'Count' || f.optional) return;
      const shared = !isCommand && out.filter((a) => a.lenIndex === f.lenIndex && a !== len).length > 1;
      if (len.optional || shared) out[i] = { ...f, optional: true };
    });
  }
  return out;
}

/** The signature class of a parameter for the call thunks. */
export function thunkClass(f: MarshalField, reg: Registry): string {
  if (f.decl.text.includes('*') || f.decl.arraySizes.length > 0) return 'p';
  if (f.struct >= 0) return `S${f.decl.typeName}`;
  switch (f.scalar) {
    case 'Handle':
      return reg.types.get(f.decl.typeName)?.category === 'handle' ? 'p' : 'q';
    case 'U64':
    case 'I64':
      return 'q';
    case 'F32':
      return 'f';
    case 'F64':
      return 'd';
    default:
      return 'u';
  }
}

/** Features that describe the loader interface, not the application's API. */
const LOADER_UNITS = new Set(['XR_LOADER_VERSION_1_0']);

/**
 * The unit (core version or extension) that first needs each type: the types its requirements name
 * and those its commands use, with the structures they contain or point to.
 */
export function definingUnits(sel: Selection): Map<string, string> {
  const reg = sel.registry;
  const units = new Map<string, string>();
  const visit = (unit: string, name: string): void => {
    if (units.has(name)) return;
    const t = reg.types.get(name);
    if (t === undefined) return;
    units.set(name, unit);
    if (t.category === 'struct') for (const m of t.members) visit(unit, m.typeName);
  };
  const visitBlocks = (unit: string, blocks: Selection['features'][number]['requires']): void => {
    for (const b of blocks) {
      for (const t of b.types) visit(unit, t);
      for (const c of b.commands) {
        let cmd = reg.commands.get(c);
        if (cmd?.alias !== undefined) cmd = reg.commands.get(cmd.alias);
        for (const p of cmd?.params ?? []) visit(unit, p.typeName);
      }
    }
  };
  for (const f of sel.features) visitBlocks(f.name, f.requires);
  for (const e of sel.extensions) visitBlocks(e.name, e.requires);
  for (const e of sel.platform?.extensions ?? []) visitBlocks(e.name, e.requires);
  return units;
}

/**
 * Whether a command parameter takes a JavaScript argument (the native marshaller applies the same
 * rule): counts and capacities come from arrays, and outputs take one only when they are
 * structures the caller may seed (a `next` chain to fill, a caller-sized array).
 */
export function takesArgument(f: MarshalField): boolean {
  if (f.shape === 'Count' || f.shape === 'Capacity' || f.shape === 'CountOutput') return false;
  if (!f.output) return true;
  if (f.shape === 'Array') return !f.sizedBySibling && f.lenMember < 0 && (f.struct >= 0 || f.countOutputIndex < 0);
  return f.struct >= 0 && f.shape === 'Pointer';
}

/**
 * `dispatch`: the commands of the dispatch table; the protected platform's commands (the Vulkan
 * graphics binding) come from the selection and are resolved by name (dispatchIndex -1), their
 * foreign types stored as `foreign` says.
 */
export function buildMarshalModel(sel: Selection, dispatch: readonly DispatchCommand[], foreign?: ForeignScalar): MarshalModel {
  const reg = sel.registry;
  const units = definingUnits(sel);
  // The loader-interface structures (negotiation, layer chain) are the loader's own business.
  const structTypes: RegistryType[] = [...sel.types, ...(sel.platform?.types ?? [])]
    .map((n) => reg.types.get(n))
    .filter((t): t is RegistryType => t !== undefined && t.category === 'struct' && t.alias === undefined && !LOADER_UNITS.has(units.get(t.name) ?? ''))
    .sort((a, b) => a.order - b.order);
  const structIndex = new Map(structTypes.map((t, i) => [t.name, i]));
  // Aliases (XrUuidEXT for XrUuid) marshal as their target.
  for (const t of reg.types.values()) {
    if (t.category !== 'struct' || t.alias === undefined) continue;
    const target = structIndex.get(t.alias);
    if (target !== undefined) structIndex.set(t.name, target);
  }
  const typeValues = new Map((sel.groupValues.get('XrStructureType') ?? []).map((v) => [v.name, Number(v.numeric ?? 0)]));
  const extenders = new Map<string, number[]>();
  structTypes.forEach((t, i) => {
    for (const base of t.structExtends) {
      if (!structIndex.has(base)) continue;
      const list = extenders.get(base) ?? [];
      list.push(i);
      extenders.set(base, list);
    }
  });
  const structs: MarshalStruct[] = structTypes.map((t, index) => {
    const typeMember = t.members.find((m) => m.name === 'type' && m.typeName === 'XrStructureType');
    const structureType = typeMember?.values;
    return {
      name: t.name,
      index,
      structureType,
      structureTypeValue: structureType === undefined ? 0 : (typeValues.get(structureType) ?? 0),
      fields: classify(sel, t.name, t.members, structIndex, false, foreign),
      extenders: extenders.get(t.name) ?? [],
      returnedOnly: t.returnedOnly,
      children: structTypes.flatMap((c, i) => (c.parentStruct === t.name ? [i] : [])),
      definedBy: units.get(t.name) ?? 'XR_VERSION_1_0',
      isUnion: false,
    };
  });

  // Which extensions require each command (a command can be required by several).
  const requiredBy = new Map<string, string[]>();
  for (const e of [...sel.extensions, ...(sel.platform?.extensions ?? [])]) {
    for (const b of e.requires) {
      for (const c of b.commands) {
        const list = requiredBy.get(c) ?? [];
        if (!list.includes(e.name)) list.push(e.name);
        requiredBy.set(c, list);
      }
    }
  }
  const thunkKeys: string[] = [];
  const commands: MarshalCommand[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const platformCommands: DispatchCommand[] = (sel.platform?.commands ?? []).map((c) => ({
    name: c.name,
    member: c.name.slice(2),
    level: 'instance',
    index: -1,
    requiredBy: c.requiredBy,
    isCore: false,
    extensionType: c.extension?.type ?? '',
    aliasOf: c.aliasOf ?? '',
    needsInstance: true,
    returnType: c.signature.returnType,
    params: c.signature.params,
  }));
  for (const d of [...dispatch, ...platformCommands]) {
    if (d.returnType !== 'XrResult') {
      skipped.push({ name: d.name, reason: `returns ${d.returnType}` });
      continue;
    }
    const params = classify(sel, d.name, d.params, structIndex, true, foreign);
    const key = params.map((p) => thunkClass(p, reg)).join(',');
    let thunk = thunkKeys.indexOf(key);
    if (thunk < 0) {
      thunk = thunkKeys.length;
      thunkKeys.push(key);
    }
    const last = params[params.length - 1];
    const first = params[0];
    const signature = reg.commands.get(d.aliasOf === '' ? d.name : d.aliasOf);
    commands.push({
      name: d.name,
      dispatchIndex: d.index,
      params,
      extensions: d.isCore ? [] : (requiredBy.get(d.name) ?? [d.requiredBy]),
      coreVersion: d.isCore ? d.requiredBy : undefined,
      thunk,
      createsHandle: /^xrCreate/.test(d.name) && last !== undefined && last.output && last.scalar === 'Handle' && last.shape === 'Pointer',
      destroysHandle: /^xrDestroy/.test(d.name) && params.length === 1 && first?.scalar === 'Handle',
      successCodes: signature?.successCodes ?? ['XR_SUCCESS'],
      returnType: d.returnType,
      level: d.level,
    });
  }
  return { structs, commands, thunks: thunkKeys, skipped, enumGroups: [], handleTypes: [] };
}
