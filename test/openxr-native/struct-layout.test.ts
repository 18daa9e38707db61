// The test runtime, the test layers and the addon compile against the project's generated
// headers, so their struct-size checks alone would only show the project agrees with itself.
// test/native/xr_struct_layout prints the layouts from both the generated headers and the system
// OpenXR headers (Debian libopenxr-dev, with the negotiation structures written from the loader
// specification); they must be identical.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';

const generated = path.join(testNativeDir, 'xr_struct_layout/kl_struct_layout_generated');
const system = path.join(testNativeDir, 'xr_struct_layout/kl_struct_layout_system');
const skip = missingSystemComponent({
  'Debian libopenxr-dev (/usr/include/openxr/openxr.h)': ['/usr/include/openxr/openxr.h'],
  'test/native kl_struct_layout_system (built against the system headers)': [system],
});

const layout = (program: string): string[] => execFileSync(program, { encoding: 'utf8' }).trim().split('\n');

describe.skipIf(skip !== null)(`struct layouts against the system OpenXR headers${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('XR-RN-1 XR-LN-1 XR-CI-3: the negotiation and API structures and constants have the layout of the system headers', () => {
    const ours = layout(generated);
    const theirs = layout(system);
    // Both programs print the same list; a structure, member or constant that differs shows by name.
    expect(ours).toEqual(theirs);
    // And the list is the real one (x86-64 LP64 values from the loader specification's declarations).
    expect(theirs.length).toBeGreaterThan(400);
    expect(theirs).toContain('XrNegotiateLoaderInfo size 40 align 8');
    expect(theirs).toContain('XrApiLayerCreateInfo.nextInfo offset 536 size 8');
    expect(theirs).toContain('XrInstanceCreateInfo type 3');
    expect(theirs).toContain('XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO 5');
  });

  it('XR-RN-1: the Vulkan graphics binding of generated/openxr_vulkan_types.h has the layout, structure types and command types of the system openxr_platform.h', () => {
    // What the simulated runtime and the addon pass across the runtime boundary for XR_KHR_vulkan_enable2.
    const vulkan = (lines: string[]): string[] => lines.filter((l) => /Vulkan/.test(l));
    const ours = vulkan(layout(generated));
    const theirs = vulkan(layout(system));
    expect(ours).toEqual(theirs);
    expect(theirs.length).toBeGreaterThan(50);
    expect(theirs).toContain('XrVulkanInstanceCreateInfoKHR type 1000090000');
    expect(theirs).toContain('XrGraphicsBindingVulkan2KHR type 1000025000');
    expect(theirs).toContain('XrVulkanDeviceCreateInfoKHR.vulkanCreateInfo offset 48 size 8');
    expect(theirs.filter((l) => l.startsWith('PFN_xr'))).toHaveLength(8);
  });
});
