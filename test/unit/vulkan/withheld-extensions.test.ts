// The window-system instance extensions the loader withholds (lib/vulkan/native/plan.ts) are
// exactly VK_KHR_surface, VK_KHR_display and every Vulkan instance extension of the registry that
// depends on one of them, directly or through another, less the surface extensions it implements
// (docs/conformance.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegistry } from '../../../scripts/generator/registry.js';
import { defaultRegistryDir } from '../../../scripts/generate.js';
import { IMPLEMENTED_WSI_INSTANCE_EXTENSIONS, WITHHELD_WSI_INSTANCE_EXTENSIONS } from '../../../lib/vulkan/native/plan.js';

describe('withheld window-system instance extensions', () => {
  it('VK-IE-3: the withheld list is the registry\'s surface and display extensions and every instance extension depending on them', () => {
    const registry = readRegistry(readFileSync(path.join(defaultRegistryDir(), 'vk.xml'), 'utf8'), 'vk.xml', 'vulkan');
    const instance = registry.extensions.filter((e) => e.supported && e.type === 'instance');
    const closure = new Set(['VK_KHR_surface', 'VK_KHR_display']);
    for (let grown = true; grown; ) {
      grown = false;
      for (const e of instance) {
        if (closure.has(e.name)) continue;
        const names = (e.depends ?? '').match(/VK_\w+/g) ?? [];
        if (names.some((n) => closure.has(n))) {
          closure.add(e.name);
          grown = true;
        }
      }
    }
    expect([...WITHHELD_WSI_INSTANCE_EXTENSIONS, ...IMPLEMENTED_WSI_INSTANCE_EXTENSIONS].sort()).toEqual([...closure].sort());
  });

  it('VK-WSI-1: the implemented surface extensions are not withheld, and the display family stays withheld', () => {
    const withheld = new Set(WITHHELD_WSI_INSTANCE_EXTENSIONS);
    expect(IMPLEMENTED_WSI_INSTANCE_EXTENSIONS.filter((e) => withheld.has(e))).toEqual([]);
    expect(withheld.has('VK_KHR_display')).toBe(true);
    for (const e of ['VK_KHR_surface', 'VK_KHR_xlib_surface', 'VK_KHR_xcb_surface', 'VK_KHR_wayland_surface', 'VK_EXT_headless_surface']) {
      expect(IMPLEMENTED_WSI_INSTANCE_EXTENSIONS).toContain(e);
    }
  });
});
