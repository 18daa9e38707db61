// The generated Vulkan bindings' tables (scripts/generator/marshal-vulkan.ts): every command and
// structure of vk.xml they should hold, counted by this test's own reading of the registry (not the
// generator's selection), and the classification of members and parameters whose shapes the
// specification fixes.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultRegistryDir } from '../../scripts/generate.js';
import { VULKAN } from '../../scripts/generator/apis.js';
import { dispatchCommands } from '../../scripts/generator/commands.js';
import { takesArgument } from '../../scripts/generator/marshal-model.js';
import { buildVulkanMarshalModel } from '../../scripts/generator/marshal-vulkan.js';
import { readRegistry } from '../../scripts/generator/registry.js';
import { RegistrySelector } from '../../scripts/generator/select.js';
import { VK_GENERATED_COMMANDS } from '../../lib/generated/vulkan-commands.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const xml = readFileSync(path.join(defaultRegistryDir(), 'vk.xml'), 'utf8');

const forVulkan = (el: Element): boolean => {
  const api = el.getAttribute('api');
  return api === null || api === '' || api.split(',').includes('vulkan');
};

/** A registry `depends` expression (`A+B` both, `A,B` either, parentheses) over what is available. */
function dependsHold(expression: string | null, available: (name: string) => boolean): boolean {
  if (expression === null || expression === '') return true;
  const js = expression.replace(/[A-Za-z0-9_:]+/g, (n) => String(available(n.split('::')[0] ?? n))).replace(/\+/g, '&&').replace(/,/g, '||');
  return Function(`return (${js});`)() as boolean;
}

/**
 * This test's own reading of vk.xml: the commands and structure/union types that the Vulkan
 * features (1.0 to 1.4) and the KHR and EXT extensions supported for Vulkan require — not the
 * provisional ones, not those with a platform (the window-system extensions are left out,
 * docs/usage.md says so), not those whose structures need a header outside the registry (the video
 * codec headers), nor what depends on those.
 */
function expectedFromRegistry(): { commands: Set<string>; types: Set<string> } {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const commands = new Set<string>();
  const required = new Set<string>();
  const typeEls = new Map<string, Element>();
  for (const t of Array.from(doc.getElementsByTagName('type'))) {
    const name = t.getAttribute('name') ?? t.getElementsByTagName('name')[0]?.textContent ?? '';
    if (name !== '' && forVulkan(t) && !typeEls.has(name)) typeEls.set(name, t);
  }
  // Whether a type needs a header vk.xml only names (vk_video/...h), through its members.
  const foreign = (name: string, seen = new Set<string>()): boolean => {
    const el = typeEls.get(name);
    if (el === undefined || seen.has(name)) return false;
    seen.add(name);
    if (/\.h$/.test(typeEls.get(el.getAttribute('requires') ?? '')?.getAttribute('name') ?? el.getAttribute('requires') ?? '')) return true;
    return Array.from(el.getElementsByTagName('member')).some((m) => foreign(m.getElementsByTagName('type')[0]?.textContent ?? '', seen));
  };
  const features = Array.from(doc.getElementsByTagName('feature')).filter(forVulkan);
  const featureNames = new Set(features.map((f) => f.getAttribute('name') ?? ''));
  const candidates = new Map<string, Element>();
  for (const e of Array.from(doc.getElementsByTagName('extension'))) {
    const name = e.getAttribute('name') ?? '';
    const supported = (e.getAttribute('supported') ?? '').split(',');
    if (!supported.includes('vulkan') || !/^VK_(KHR|EXT)_/.test(name)) continue;
    if (e.getAttribute('platform') || e.getAttribute('provisional') === 'true') continue;
    const types = Array.from(e.getElementsByTagName('require'))
      .filter((r) => !r.getAttribute('depends'))
      .flatMap((r) => Array.from(r.getElementsByTagName('type')).map((t) => t.getAttribute('name') ?? ''));
    if (types.some((t) => foreign(t))) continue; // its own blocks need such a header; blocks that depend on another extension are judged below
    candidates.set(name, e);
  }
  // Every extension the registry lists, supported for Vulkan or not, counts as available only when selected.
  const selectedAll = new Set<string>();
  for (const e of Array.from(doc.getElementsByTagName('extension'))) {
    const name = e.getAttribute('name') ?? '';
    const supported = (e.getAttribute('supported') ?? '').split(',');
    if (supported.includes('vulkan') && !e.getAttribute('platform') && e.getAttribute('provisional') !== 'true') selectedAll.add(name);
  }
  for (const e of Array.from(doc.getElementsByTagName('extension'))) {
    const types = Array.from(e.getElementsByTagName('require'))
      .filter((r) => !r.getAttribute('depends'))
      .flatMap((r) => Array.from(r.getElementsByTagName('type')).map((t) => t.getAttribute('name') ?? ''));
    if (types.some((t) => foreign(t))) selectedAll.delete(e.getAttribute('name') ?? '');
  }
  const available = (n: string): boolean => featureNames.has(n) || selectedAll.has(n);
  const units: Element[] = [...features, ...candidates.values()];
  for (const u of units) {
    if (u.nodeName === 'extension' && !dependsHold(u.getAttribute('depends'), available)) continue;
    for (const r of Array.from(u.getElementsByTagName('require'))) {
      if (!forVulkan(r) || !dependsHold(r.getAttribute('depends'), available)) continue;
      for (const c of Array.from(r.getElementsByTagName('command'))) commands.add(c.getAttribute('name') ?? '');
      for (const t of Array.from(r.getElementsByTagName('type'))) required.add(t.getAttribute('name') ?? '');
    }
  }
  // The structures and unions those name (directly or through a command's parameters), with
  // everything they contain, aliases resolved.
  const commandEls = new Map<string, Element>();
  for (const c of Array.from(doc.getElementsByTagName('command'))) {
    if (!forVulkan(c)) continue;
    const name = c.getAttribute('name') ?? c.getElementsByTagName('proto')[0]?.getElementsByTagName('name')[0]?.textContent ?? '';
    if (name !== '' && c.parentNode?.nodeName === 'commands') commandEls.set(name, c);
  }
  const types = new Set<string>();
  const visit = (name: string): void => {
    let el = typeEls.get(name);
    for (let i = 0; el?.getAttribute('alias') && i < 4; i++) el = typeEls.get(el.getAttribute('alias') ?? '');
    const category = el?.getAttribute('category');
    if (el === undefined || (category !== 'struct' && category !== 'union')) return;
    const real = el.getAttribute('name') ?? '';
    if (types.has(real)) return;
    types.add(real);
    for (const m of Array.from(el.getElementsByTagName('member'))) if (forVulkan(m)) visit(m.getElementsByTagName('type')[0]?.textContent ?? '');
  };
  for (const t of required) visit(t);
  for (const c of commands) {
    let el = commandEls.get(c);
    if (el?.getAttribute('alias')) el = commandEls.get(el.getAttribute('alias') ?? '');
    for (const p of Array.from(el?.getElementsByTagName('param') ?? [])) if (forVulkan(p)) visit(p.getElementsByTagName('type')[0]?.textContent ?? '');
  }
  return { commands, types };
}

const registry = readRegistry(xml, 'vk.xml', 'vulkan');
const selection = new RegistrySelector(registry, VULKAN.platformInclude).select();
const model = buildVulkanMarshalModel(selection, dispatchCommands(VULKAN, selection));
const command = (name: string) => {
  const c = model.commands.find((x) => x.name === name);
  if (c === undefined) throw new Error(`no command ${name}`);
  return c;
};
const struct = (name: string) => {
  const s = model.structs.find((x) => x.name === name);
  if (s === undefined) throw new Error(`no structure ${name}`);
  return s;
};
const shapes = (fields: readonly { name: string; shape: string }[]) => Object.fromEntries(fields.map((f) => [f.name, f.shape]));

describe('generated Vulkan bindings: the tables against vk.xml', () => {
  it('VKGEN-1: the generated command list holds every command of Vulkan 1.0-1.4 and of the KHR/EXT extensions (this test reading vk.xml itself)', () => {
    const expected = expectedFromRegistry();
    const generated = new Set<string>(VK_GENERATED_COMMANDS);
    expect([...expected.commands].filter((c) => !generated.has(c)).sort()).toEqual([]);
    expect([...generated].filter((c) => !expected.commands.has(c)).sort()).toEqual([]);
    expect(generated.size).toBe(expected.commands.size);
    expect(generated.size).toBeGreaterThan(550);
    // The native table has one row per command, in the same order.
    const header = readFileSync(path.join(root, 'native/generated/vulkan_marshal.h'), 'utf8');
    const rows = [...header.matchAll(/^ {4}\{"(vk\w+)", \d+, \d+, \d+, Level::/gm)].map((m) => m[1]);
    expect(rows).toEqual([...VK_GENERATED_COMMANDS]);
  });

  it('VKGEN-1: the structure table holds every structure and union those commands and units name, with what they contain', () => {
    const expected = expectedFromRegistry();
    const names = new Set(model.structs.map((s) => s.name));
    expect([...expected.types].filter((t) => !names.has(t)).sort()).toEqual([]);
    expect([...names].filter((t) => !expected.types.has(t)).sort()).toEqual([]);
    const header = readFileSync(path.join(root, 'native/generated/vulkan_marshal_structs.h'), 'utf8');
    const rows = [...header.matchAll(/^ {4}\{"(Vk\w+)", sizeof\(/gm)].map((m) => m[1]);
    expect(rows.length).toBe(expected.types.size);
  });
});

describe('generated Vulkan bindings: the marshal model', () => {
  it('VKGEN-2: the two-call idiom pairs the in/out count with its array; the array takes only a template (for pNext), the count nothing', () => {
    const c = command('vkEnumerateDeviceExtensionProperties');
    expect(shapes(c.params)).toEqual({ physicalDevice: 'Value', pLayerName: 'String', pPropertyCount: 'CountOutput', pProperties: 'Array' });
    expect(c.params[3]?.countOutputIndex).toBe(2);
    expect(c.params.filter(takesArgument).map((p) => p.name)).toEqual(['physicalDevice', 'pLayerName', 'pProperties']);
  });

  it('VKGEN-2: arrays sized by another parameter\'s member or by an input array take no argument; shared counts are hidden', () => {
    const alloc = command('vkAllocateCommandBuffers');
    expect(alloc.params[2]).toEqual(expect.objectContaining({ name: 'pCommandBuffers', shape: 'Array', lenIndex: 1, output: true }));
    expect(alloc.params[2]?.lenMember).toBe(struct('VkCommandBufferAllocateInfo').fields.findIndex((f) => f.name === 'commandBufferCount'));
    expect(alloc.params.filter(takesArgument).map((p) => p.name)).toEqual(['device', 'pAllocateInfo']);
    const pipelines = command('vkCreateGraphicsPipelines');
    expect(pipelines.params.find((p) => p.name === 'pPipelines')?.sizedBySibling).toBe(true);
    expect(pipelines.params.filter(takesArgument).map((p) => p.name)).toEqual(['device', 'pipelineCache', 'pCreateInfos', 'pAllocator']);
    expect(shapes(command('vkCmdBindVertexBuffers').params)).toEqual({ commandBuffer: 'Value', firstBinding: 'Value', bindingCount: 'Count', pBuffers: 'Array', pOffsets: 'Array' });
  });

  it('VKGEN-2: sType/pNext, counts that stand alone when every array naming them is optional, code sized in bytes, unions, bit-fields, function pointers', () => {
    expect(shapes(struct('VkShaderModuleCreateInfo').fields)).toEqual({ sType: 'StructureType', pNext: 'Next', flags: 'Value', codeSize: 'Count', pCode: 'Array' });
    expect(struct('VkShaderModuleCreateInfo').fields[4]?.lenBytes).toBe(true);
    // descriptorCount means something without immutable samplers; viewportCount with dynamic viewports.
    expect(shapes(struct('VkDescriptorSetLayoutBinding').fields)).toEqual({ binding: 'Value', descriptorType: 'Value', descriptorCount: 'Value', stageFlags: 'Value', pImmutableSamplers: 'Array' });
    expect(shapes(struct('VkPipelineViewportStateCreateInfo').fields)).toMatchObject({ viewportCount: 'Value', pViewports: 'Array' });
    expect(struct('VkClearValue').isUnion).toBe(true);
    expect(struct('VkAccelerationStructureInstanceKHR').fields.find((f) => f.name === 'mask')?.shape).toBe('Unsupported');
    const callback = struct('VkDebugUtilsMessengerCreateInfoEXT').fields.find((f) => f.name === 'pfnUserCallback');
    expect(callback).toEqual(expect.objectContaining({ shape: 'Unsupported', required: true }));
    expect(command('vkCreateBuffer').params.find((p) => p.name === 'pAllocator')?.shape).toBe('Unsupported');
  });

  it('VKGEN-2: enums carry their group (names accepted), handles their type; each handle type knows its parents and its destroy command', () => {
    const sharing = struct('VkBufferCreateInfo').fields.find((f) => f.name === 'sharingMode');
    expect(model.enumGroups[sharing?.typeIndex ?? -1]?.name).toBe('VkSharingMode');
    expect(model.enumGroups[sharing?.typeIndex ?? -1]?.values).toContainEqual({ name: 'VK_SHARING_MODE_CONCURRENT', value: 1 });
    const buffer = command('vkDestroyBuffer').params[1];
    expect(model.handleTypes[buffer?.typeIndex ?? -1]?.name).toBe('VkBuffer');
    const handle = (n: string) => model.handleTypes.find((h) => h.name === n);
    expect(model.commands[handle('VkBuffer')?.destroyCommand ?? -1]?.name).toBe('vkDestroyBuffer');
    expect(model.commands[handle('VkDeviceMemory')?.destroyCommand ?? -1]?.name).toBe('vkFreeMemory');
    expect(handle('VkCommandBuffer')).toEqual(expect.objectContaining({ parents: ['VkCommandPool'], freedWithParent: true, destroyCommand: -1 }));
    expect(handle('VkDevice')?.dispatchable).toBe(true);
    expect(handle('VkImage')?.dispatchable).toBe(false);
  });
});
