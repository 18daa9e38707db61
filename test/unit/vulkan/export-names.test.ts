// NODE-1: the package's entry points export no name that is also one of Node's globals: an
// `import { Buffer } from 'khronos-loader/vulkan'` (or a destructured `import *`) would silently
// shadow Node's Buffer in the importing module. The Vulkan buffer class is VulkanBuffer.
import { describe, expect, it } from 'vitest';
import * as root from '../../../lib/index.js';
import * as openxr from '../../../lib/openxr/index.js';
import * as vulkan from '../../../lib/vulkan/index.js';

describe('NODE-1: exported names', () => {
  it('NODE-1: no entry point (khronos-loader, /openxr, /vulkan) exports a name of a Node global such as Buffer; the Vulkan buffer class is VulkanBuffer', () => {
    const globals = new Set(Object.getOwnPropertyNames(globalThis));
    for (const [entry, module] of Object.entries({ root, openxr, vulkan })) {
      const shadowing = Object.keys(module).filter((name) => globals.has(name));
      expect(shadowing, `${entry} exports names of Node globals`).toEqual([]);
    }
    expect('Buffer' in vulkan).toBe(false);
    expect(typeof vulkan.VulkanBuffer).toBe('function');
    expect(vulkan.VulkanBuffer.name).toBe('VulkanBuffer');
  });
});
