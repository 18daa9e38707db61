// Emits lib/generated/openxr-commands.ts: a TypeScript interface for every structure of the
// generated bindings (next chains typed as unions of the structures the registry lets extend
// it), the XrCommands interface with one method per command, and the command list whose
// positions are the native table's (the functions themselves are built from it at run time).
import { bannerText, type ApiConfig } from './apis.js';
import { takesArgument, type MarshalCommand, type MarshalField, type MarshalModel, type MarshalStruct } from './marshal-model.js';
import { platformRuleText, vulkanRuleText } from './marshal-native.js';
import type { Selection } from './select.js';

/** What differs between the two APIs' TypeScript modules. */
interface TsApi {
  readonly prefix: 'Xr' | 'Vk';
  readonly typeMember: string;
  readonly nextMember: string;
  readonly model: MarshalModel;
}

let api: TsApi = { prefix: 'Xr', typeMember: 'type', nextMember: 'next', model: { structs: [], commands: [], thunks: [], skipped: [], enumGroups: [], handleTypes: [] } };

function scalarType(f: MarshalField): string {
  if (api.prefix === 'Vk' && f.scalar === 'Handle' && f.typeIndex >= 0) return api.model.handleTypes[f.typeIndex]?.name ?? 'bigint';
  if (api.prefix === 'Vk' && f.scalar === 'Enum' && f.typeIndex >= 0) return api.model.enumGroups[f.typeIndex]?.name ?? 'number';
  switch (f.scalar) {
    case 'Bool32':
      return 'boolean';
    case 'U64':
    case 'I64':
    case 'Handle':
    case 'Address':
      return 'bigint';
    case 'Char':
      return 'string';
    default:
      return 'number';
  }
}

/** A structure's type, or for a base header the union of what may stand in for it. */
function structRef(model: MarshalModel, index: number): string {
  const s = model.structs[index];
  if (s === undefined) throw new Error(`struct index ${index}`);
  if (s.children.length === 0) return s.name;
  return `${api.prefix}Chained<${[s.name, ...s.children.map((c) => model.structs[c]?.name ?? '')].join(' | ')}>`;
}

function valueType(model: MarshalModel, f: MarshalField): string {
  const element = f.struct >= 0 ? structRef(model, f.struct) : scalarType(f);
  switch (f.shape) {
    case 'Value':
      if (f.scalar === 'Char') return 'string';
      return f.fixedCount > 1 || f.fixedCountText !== '' ? `readonly ${wrapUnion(element)}[]` : element;
    case 'String':
      return 'string';
    case 'StringArray':
      return 'readonly string[]';
    case 'Array':
      return f.scalar === 'Char' ? 'string' : `readonly ${wrapUnion(element)}[]`;
    case 'PointerArray':
      return `readonly ${wrapUnion(element)}[]`;
    case 'Pointer':
      return element;
    default:
      return 'bigint';
  }
}

function wrapUnion(t: string): string {
  return t.includes(' | ') && !t.startsWith(`${api.prefix}Chained<`) ? `(${t})` : t;
}

function isHidden(f: MarshalField): boolean {
  return f.shape === 'Count' || f.shape === 'Capacity' || f.shape === 'CountOutput';
}

function emitStruct(out: string[], model: MarshalModel, s: MarshalStruct): void {
  const head = s.returnedOnly ? ' Filled by the runtime.' : '';
  out.push(`/** ${s.name}.${head} */`);
  if (s.isUnion) {
    // A union: an object naming exactly one member.
    const members = s.fields.map((f) => `{ readonly ${f.name}: ${valueType(model, f)} }`);
    out.push(`export type ${s.name} = ${members.join(' | ')};`, '');
    return;
  }
  out.push(`export interface ${s.name} {`);
  for (const f of s.fields) {
    if (isHidden(f)) continue;
    if (f.shape === 'StructureType') {
      // A base header takes the type of whichever structure stands in for it.
      out.push(`  readonly ${api.typeMember}?: ${s.structureType === undefined ? 'number' : s.structureTypeValue};`);
    } else if (f.shape === 'Next') {
      const next = s.extenders.length === 0 ? 'null' : `${s.name}Next | readonly ${s.name}Next[] | null`;
      out.push(`  readonly ${api.nextMember}?: ${next};`);
    } else {
      // What the runtime fills is always there when it comes back.
      // Vulkan: a scalar member left out is zero (VK_FALSE, 0), as C's `{}` leaves it; pointers and arrays follow the registry.
      const zeroDefault = api.prefix === 'Vk' && !s.returnedOnly && f.shape === 'Value' && f.struct < 0;
      const optional = (f.optional && !s.returnedOnly) || zeroDefault || (f.shape === 'Unsupported' && !f.required) ? '?' : '';
      const nullable = f.optional && (f.shape === 'Pointer' || f.shape === 'String') ? ' | null' : '';
      // Vulkan: a safe-integer number is accepted where a 64-bit member (a size, an offset) is expected.
      const wide = api.prefix === 'Vk' && f.shape === 'Value' && f.struct < 0 && f.fixedCount === 1 && (f.scalar === 'U64' || f.scalar === 'I64');
      out.push(`  readonly ${f.name}${optional}: ${wide ? 'bigint | number' : valueType(model, f)}${nullable};`);
    }
  }
  out.push('}');
  if (s.extenders.length > 0) {
    out.push(`/** What ${s.name}.next may hold (the registry's structextends). */`);
    out.push(`export type ${s.name}Next = ${s.extenders.map((e) => `${api.prefix}Chained<${model.structs[e]?.name ?? ''}>`).join(' | ')};`);
  }
  out.push('');
}

function outputType(model: MarshalModel, f: MarshalField): string {
  if (f.shape === 'Unsupported') return 'bigint';
  if (f.shape === 'Value' && f.scalar === 'Char') return 'string';
  if (f.shape === 'Array' && f.scalar === 'Char') return 'string';
  if (f.shape === 'Array' && f.struct < 0 && f.scalar === 'Address') return 'Uint8Array';
  if (f.shape === 'Array') return f.struct >= 0 ? `${api.prefix}Returned<${structRef(model, f.struct)}>[]` : `${scalarType(f)}[]`;
  if (f.shape === 'Pointer') return f.struct >= 0 ? `${api.prefix}Returned<${structRef(model, f.struct)}>` : scalarType(f);
  return valueType(model, f);
}

function argumentType(model: MarshalModel, f: MarshalField): string {
  if (f.output && f.shape === 'Array') {
    const element = f.struct >= 0 ? `${api.prefix}Init<${model.structs[f.struct]?.name ?? ''}>` : 'never';
    // A two-call array takes one template for its elements; a caller-sized one its elements or their number.
    return f.countOutputIndex >= 0 ? element : `readonly ${element}[] | number`;
  }
  if (f.output) return `${api.prefix}Init<${structRef(model, f.struct)}>`;
  if (f.shape === 'Array' && f.struct < 0 && f.scalar === 'Address') return 'Uint8Array';
  // A safe-integer number is accepted where a 64-bit value (a time, a path, flags) is expected.
  if (f.shape === 'Value' && f.struct < 0 && (f.scalar === 'U64' || f.scalar === 'I64')) return 'bigint | number';
  return valueType(model, f);
}

function emitCommand(out: string[], model: MarshalModel, c: MarshalCommand): void {
  const args: string[] = [];
  const params = c.params;
  let optionalTail = true;
  // Trailing optional arguments can be left out; an optional one before a required one takes undefined.
  const taken = params.filter(takesArgument);
  const optionalFrom = (() => {
    let i = taken.length;
    while (i > 0) {
      const f = taken[i - 1];
      if (f === undefined || !(f.optional || f.output)) break;
      i--;
    }
    return i;
  })();
  taken.forEach((f, i) => {
    optionalTail = i >= optionalFrom;
    const nullable = f.optional && !f.output ? ' | null' : '';
    args.push(`${f.name}${optionalTail ? '?' : ''}: ${argumentType(model, f)}${nullable}${!optionalTail && f.optional ? ' | undefined' : ''}`);
  });
  const outputs = params.filter((f) => f.output && f.shape !== 'CountOutput');
  const value = api.prefix === 'Vk' && c.returnType !== 'VkResult' && c.returnType !== 'void' ? [`readonly value: ${c.returnType === 'VkBool32' || c.returnType === 'uint32_t' ? 'number' : 'bigint'}`] : [];
  const result = [`readonly result: number`, ...value, ...outputs.map((f) => `readonly ${f.name}: ${outputType(model, f)}`)].join('; ');
  const via = c.extensions.length === 0 ? (c.coreVersion ?? '') : c.extensions.join(', ');
  out.push(`  /** ${c.name} (${via}). */`);
  out.push(`  ${c.name}(${args.join(', ')}): { ${result} };`);
}

export function emitCommandsModule(cfg: ApiConfig, sel: Selection, model: MarshalModel): string {
  api = { prefix: 'Xr', typeMember: 'type', nextMember: 'next', model };
  const out: string[] = [`// ${bannerText(cfg, sel.registry)}`];
  out.push('// Types of the generated OpenXR bindings (lib/openxr/commands.ts builds the functions from XR_GENERATED_COMMANDS).');
  for (const line of platformRuleText(sel)) {
    out.push(`// ${line}`);
  }
  out.push('/* eslint-disable */', '');
  out.push('/** A structure in a next chain or behind a base-header pointer: its `type` says which it is. */');
  out.push('export type XrChained<T extends { readonly type?: number }> = T & { readonly type: NonNullable<T[\'type\']> };', '');
  out.push('/** What seeds a structure the runtime fills: any part of it (a next chain to fill, a caller-sized array or its length). */');
  out.push('export type XrInit<T> = {');
  out.push('  readonly [K in keyof T]?: K extends \'next\'');
  out.push('    ? XrInitChained<XrNextElement<T[K]>> | readonly XrInitChained<XrNextElement<T[K]>>[] | null');
  out.push('    : T[K] extends readonly (infer E)[]');
  out.push('      ? readonly XrInit<E>[] | number');
  out.push('      : T[K] extends object');
  out.push('        ? XrInit<T[K]>');
  out.push('        : T[K];');
  out.push('};');
  out.push('/** A structure as a command returns it: every member there (null for a null pointer), `next` only when chained. */');
  out.push('export type XrReturned<T> = { readonly [K in Exclude<keyof T, \'next\'>]-?: Exclude<T[K], undefined> } & { readonly [K in Extract<keyof T, \'next\'>]?: T[K] };');
  out.push('/** One structure of a next chain (one object or an array of them). */');
  out.push('export type XrNextElement<N> = N extends readonly (infer E)[] ? E : N extends null | undefined ? never : N;');
  out.push('/** A chained structure the runtime fills, seeded: its type, and any part of it. */');
  out.push('export type XrInitChained<E> = E extends { readonly type?: number } ? XrInit<E> & { readonly type: NonNullable<E[\'type\']> } : never;', '');
  for (const s of model.structs) emitStruct(out, model, s);
  out.push('/**');
  out.push(' * Every command of the generated bindings: arguments in C order without counts and capacities');
  out.push(' * (arrays carry their length); outputs come back by their C parameter names with `result`');
  out.push(' * (the XrResult, a success code); a failure throws OpenXrError.');
  out.push(' */');
  out.push('export interface XrCommands {');
  for (const c of model.commands) emitCommand(out, model, c);
  out.push('}', '');
  out.push('/** The commands in native table order (kCommands in native/generated/openxr_marshal.h). */');
  out.push('export const XR_GENERATED_COMMANDS = [');
  for (let i = 0; i < model.commands.length; i += 4) {
    out.push(`  ${model.commands.slice(i, i + 4).map((c) => `'${c.name}'`).join(', ')},`);
  }
  out.push('] as const satisfies readonly (keyof XrCommands)[];', '');
  return out.join('\n');
}

/** Emits lib/generated/vulkan-commands.ts: the types of the generated Vulkan bindings and the command list. */
export function emitVulkanCommandsModule(cfg: ApiConfig, sel: Selection, model: MarshalModel): string {
  api = { prefix: 'Vk', typeMember: 'sType', nextMember: 'pNext', model };
  const out: string[] = [`// ${bannerText(cfg, sel.registry)}`];
  out.push('// Types of the generated Vulkan bindings (lib/vulkan/commands.ts builds the functions from VK_GENERATED_COMMANDS).');
  for (const line of vulkanRuleText(model)) out.push(`// ${line}`);
  out.push('/* eslint-disable */', '');
  out.push('/** A structure in a pNext chain: its `sType` says which it is. */');
  out.push('export type VkChained<T extends { readonly sType?: number }> = T & { readonly sType: NonNullable<T[\'sType\']> };', '');
  out.push('/** What seeds a structure the driver fills: any part of it (a pNext chain to fill). */');
  out.push('export type VkInit<T> = {');
  out.push('  readonly [K in keyof T]?: K extends \'pNext\'');
  out.push('    ? VkInitChained<VkNextElement<T[K]>> | readonly VkInitChained<VkNextElement<T[K]>>[] | null');
  out.push('    : T[K] extends readonly (infer E)[]');
  out.push('      ? readonly VkInit<E>[] | number');
  out.push('      : T[K] extends object');
  out.push('        ? VkInit<T[K]>');
  out.push('        : T[K];');
  out.push('};');
  out.push('/** A structure as a command returns it: every member there, `pNext` only when chained. */');
  out.push('export type VkReturned<T> = { readonly [K in Exclude<keyof T, \'pNext\'>]-?: Exclude<T[K], undefined> } & { readonly [K in Extract<keyof T, \'pNext\'>]?: T[K] };');
  out.push('/** One structure of a pNext chain (one object or an array of them). */');
  out.push('export type VkNextElement<N> = N extends readonly (infer E)[] ? E : N extends null | undefined ? never : N;');
  out.push('/** A chained structure the driver fills, seeded: its sType, and any part of it. */');
  out.push('export type VkInitChained<E> = E extends { readonly sType?: number } ? VkInit<E> & { readonly sType: NonNullable<E[\'sType\']> } : never;', '');
  out.push('/** A handle of one type: a bigint branded so that a VkBuffer is not taken where a VkImage is expected. */');
  out.push('export type VkHandle<Name extends string> = bigint & { readonly __vkHandle: Name };');
  for (const h of model.handleTypes) out.push(`export type ${h.name} = VkHandle<'${h.name}'>;`);
  out.push('/** The handle types by name (what VkHandle<Name> brands). */');
  out.push(`export const VK_HANDLE_TYPES = [${model.handleTypes.map((h) => `'${h.name}'`).join(', ')}] as const;`, '');
  out.push('/** Enums: the value, or its name as the registry spells it. */');
  for (const g of model.enumGroups) {
    const names = g.values.map((v) => `'${v.name}'`);
    out.push(`export type ${g.name} = number${names.length === 0 ? '' : ` | ${names.join(' | ')}`};`);
  }
  out.push('');
  for (const s of model.structs) emitStruct(out, model, s);
  out.push('/**');
  out.push(' * Every command of the generated bindings: arguments in C order without counts (arrays carry');
  out.push(' * their length) and without the outputs; outputs come back by their C parameter names with');
  out.push(' * `result` (the VkResult, a success code; 0 for a command that returns nothing) and `value` (what');
  out.push(' * a command returning neither VkResult nor void returns); a failure throws VulkanError.');
  out.push(' */');
  out.push('export interface VkCommands {');
  for (const c of model.commands) emitCommand(out, model, c);
  out.push('}', '');
  out.push('/** The commands in native table order (kCommands in native/generated/vulkan_marshal.h). */');
  out.push('export const VK_GENERATED_COMMANDS = [');
  for (let i = 0; i < model.commands.length; i += 4) {
    out.push(`  ${model.commands.slice(i, i + 4).map((c) => `'${c.name}'`).join(', ')},`);
  }
  out.push('] as const satisfies readonly (keyof VkCommands)[];', '');
  return out.join('\n');
}
