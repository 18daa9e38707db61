// The registry constants the typed APIs take, as a person writes them: the Vulkan enums and flags
// by name (generated from vk.xml; checked here against the C enums the same registry gives
// native/generated/vulkan_enums.h), and versions as parts and text (XR_VERSION_* / VK_API_VERSION_*).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';
import { VK_TYPED_API_ENUMS } from '../../scripts/generator/typescript.js';
import * as vk from '../../lib/generated/vulkan.js';
import { XR_API_VERSION_1_0, XR_API_VERSION_1_1, xrMakeVersion, xrVersionParts, xrVersionString } from '../../lib/openxr/index.js';
import { XR_REGISTRY_VERSION } from '../../lib/generated/openxr.js';
import { VK_API_VERSION_1_3, vkMakeApiVersion, vkVersionParts, vkVersionString } from '../../lib/vulkan/index.js';

/** Each C enum of the header: its non-alias values by name. */
function cEnums(header: string): Map<string, Map<string, number>> {
  const enums = new Map<string, Map<string, number>>();
  for (const m of header.matchAll(/typedef enum (\w+) \{([^}]*)\}/g)) {
    const values = new Map<string, number>();
    for (const line of (m[2] as string).split('\n')) {
      const v = /^\s*(VK_\w+) = (-?(?:0x[0-9A-Fa-f]+|\d+)),?$/.exec(line);
      if (v && !/_MAX_ENUM(_[A-Z]+)?$/.test(v[1] as string)) values.set(v[1] as string, Number(v[2]));
    }
    enums.set(m[1] as string, values);
  }
  return enums;
}

describe('TYPES: named Vulkan constants', () => {
  const header = cEnums(readFileSync(path.join(repoRoot, 'native/generated/vulkan_enums.h'), 'utf8'));

  it('TYPES: each constants object has exactly the values of its C enum, each key naming its value', () => {
    expect(VK_TYPED_API_ENUMS.length).toBeGreaterThanOrEqual(12);
    for (const { group } of VK_TYPED_API_ENUMS) {
      const name = group.replace(/^Vk/, '').replace('FlagBits', 'Flags');
      const constants = (vk as unknown as Record<string, Record<string, number>>)[name];
      const c = header.get(group);
      expect(constants, name).toBeDefined();
      expect(c, group).toBeDefined();
      const cValues = [...(c as Map<string, number>).values()].sort((a, b) => a - b);
      expect(Object.values(constants as Record<string, number>).sort((a, b) => a - b), name).toEqual(cValues);
      for (const [key, value] of Object.entries(constants as Record<string, number>)) {
        const named = [...(c as Map<string, number>)].filter(([cName, v]) => v === value && cName.replace(/_BIT(?=_[A-Z]+$|$)/, '').includes(key));
        expect(named.length, `${name}.${key}`).toBeGreaterThan(0);
      }
    }
  });

  it('TYPES: the names the README and the examples use have the Vulkan values', () => {
    expect(vk.BufferUsageFlags.STORAGE_BUFFER).toBe(0x20);
    expect(vk.BufferUsageFlags.TRANSFER_DST).toBe(0x2);
    expect(vk.MemoryPropertyFlags.HOST_VISIBLE | vk.MemoryPropertyFlags.HOST_COHERENT).toBe(0x6);
    expect(vk.DescriptorType.STORAGE_BUFFER).toBe(7);
    expect(vk.DescriptorType.STORAGE_IMAGE).toBe(3);
    expect(vk.ShaderStageFlags.COMPUTE).toBe(0x20);
    expect(vk.QueueFlags.COMPUTE).toBe(0x2);
    expect(vk.PipelineStageFlags.COMPUTE_SHADER).toBe(0x800);
    expect(vk.AccessFlags.SHADER_WRITE).toBe(0x40);
    expect(vk.Format.R8G8B8A8_UNORM).toBe(37);
    expect(vk.ImageLayout.GENERAL).toBe(1);
    expect(vk.PhysicalDeviceType.CPU).toBe(4);
    expect(vk.DebugUtilsMessageSeverityFlagsEXT.WARNING).toBe(0x100);
    expect(vk.CommandPoolCreateFlags.RESET_COMMAND_BUFFER).toBe(0x2);
  });
});

describe('TYPES: versions as a person reads them', () => {
  it('TYPES: XR_API_VERSION_1_1 reads as 1.1 with the registry patch; xrMakeVersion and xrVersionParts are inverses', () => {
    const patch = Number(XR_REGISTRY_VERSION.split('.')[2]);
    expect(xrVersionString(XR_API_VERSION_1_1)).toBe(`1.1.${patch}`);
    expect(xrVersionParts(XR_API_VERSION_1_0)).toEqual({ major: 1, minor: 0, patch, text: `1.0.${patch}`, packed: XR_API_VERSION_1_0 });
    const made = xrMakeVersion(24, 3, 4_000_000_000);
    expect(xrVersionParts(made)).toEqual({ major: 24, minor: 3, patch: 4_000_000_000, text: '24.3.4000000000', packed: made });
    // The raw value the issue saw, 4294967296n, is 0.1.0.
    expect(xrVersionString(4294967296n)).toBe('0.1.0');
    expect(xrVersionString(Number(4294967296n))).toBe('0.1.0');
  });

  it('TYPES: vkVersionParts reads VK_API_VERSION_1_3 as 1.3.0 and shows a variant', () => {
    expect(vkVersionParts(VK_API_VERSION_1_3)).toEqual({ variant: 0, major: 1, minor: 3, patch: 0, text: '1.3.0', packed: VK_API_VERSION_1_3 });
    expect(vkVersionString(vkMakeApiVersion(0, 1, 4, 309))).toBe('1.4.309');
    expect(vkVersionString(vkMakeApiVersion(1, 1, 0, 2))).toBe('variant 1 1.0.2');
  });

  it('TYPES: a version that is negative, fractional, too large or an unsafe integer is a KL_INVALID_ARGUMENT naming it', () => {
    for (const bad of [-1, 1.5, 2 ** 53, -1n, 2n ** 64n]) {
      expect(() => xrVersionParts(bad), String(bad)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT', argument: 'version' }));
    }
    for (const bad of [-1, 1.5, 2 ** 32]) {
      expect(() => vkVersionParts(bad), String(bad)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT', argument: 'version' }));
    }
    expect(() => xrVersionParts(2 ** 53)).toThrow(/not a safe integer|beyond Number.MAX_SAFE_INTEGER/);
  });
});
