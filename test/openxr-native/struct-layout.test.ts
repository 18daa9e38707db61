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
});
