// The generated bindings marshal by the offsets, sizes and alignments of their tables
// (native/generated/openxr_marshal.h, offsetof over the generated headers). Those are checked
// against an independent source: the system OpenXR headers (Debian libopenxr-dev 1.0.20, with
// openxr_platform.h over vulkan.h). test/native/xr_generated_layout prints the tables; this test
// compiles offsetof/sizeof for the same structures and members — those the system headers declare
// (they predate many extensions) — against the system headers, runs it, and compares line by line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';

const tablesProgram = path.join(testNativeDir, 'xr_generated_layout/kl_generated_layout_tables');
const SYSTEM_HEADERS = ['/usr/include/openxr/openxr.h', '/usr/include/openxr/openxr_platform.h'];
const skip = missingSystemComponent({
  'Debian libopenxr-dev (/usr/include/openxr/openxr.h)': [SYSTEM_HEADERS[0] ?? ''],
  'Vulkan headers (/usr/include/vulkan/vulkan.h, for openxr_platform.h)': ['/usr/include/vulkan/vulkan.h'],
  'a C++ compiler (c++)': ['/usr/bin/c++'],
});

interface TableStruct {
  readonly header: string;
  readonly members: Map<string, string>;
}

/** The tables' lines, by structure: its size line and each member's line. */
function readTables(): Map<string, TableStruct> {
  const structs = new Map<string, TableStruct>();
  for (const line of execFileSync(tablesProgram, { encoding: 'utf8' }).trim().split('\n')) {
    const member = /^(\w+)\.(\w+) offset \d+$/.exec(line);
    if (member !== null) {
      structs.get(member[1] ?? '')?.members.set(member[2] ?? '', line);
      continue;
    }
    const name = /^(\w+) size \d+ align \d+$/.exec(line)?.[1];
    if (name === undefined) throw new Error(`unexpected line from the tables: ${line}`);
    structs.set(name, { header: line, members: new Map() });
  }
  return structs;
}

/** Structure name -> member names, as the system headers declare them (`typedef struct XrFoo { ... } XrFoo;`). */
function systemStructs(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of SYSTEM_HEADERS) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/typedef struct (Xr\w+) \{([^}]*)\} \1;/g)) {
      const members = new Set<string>();
      for (const decl of (m[2] ?? '').split(';')) {
        const name = /(\w+)\s*(?:\[[^\]]*\])?\s*$/.exec(decl.replace(/\/\/.*$/gm, '').trim())?.[1];
        if (name !== undefined) members.add(name);
      }
      out.set(m[1] ?? '', members);
    }
  }
  return out;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'kl-layout-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(skip !== null)(`generated bindings' struct layouts against the system OpenXR headers${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('XR-CI-5 NODE-6: every structure and member of the marshal tables that the system headers declare has their offset, size and alignment', () => {
    const tables = readTables();
    const system = systemStructs();
    const expected: string[] = [];
    const probes: string[] = [];
    for (const [name, struct] of tables) {
      const members = system.get(name);
      if (members === undefined) continue;
      expected.push(struct.header);
      probes.push(`  std::printf("%s size %zu align %zu\\n", "${name}", sizeof(${name}), alignof(${name}));`);
      for (const [member, line] of struct.members) {
        if (!members.has(member)) continue;
        expected.push(line);
        probes.push(`  std::printf("%s.%s offset %zu\\n", "${name}", "${member}", offsetof(${name}, ${member}));`);
      }
    }
    const source = [
      '#include <cstddef>',
      '#include <cstdio>',
      '#include <vulkan/vulkan.h>',
      '#include <openxr/openxr.h>',
      '#define XR_USE_GRAPHICS_API_VULKAN 1',
      '#include <openxr/openxr_platform.h>',
      'int main() {',
      ...probes,
      '  return 0;',
      '}',
      '',
    ].join('\n');
    const sourcePath = path.join(scratch, 'system_layout.cc');
    const program = path.join(scratch, 'system_layout');
    writeFileSync(sourcePath, source);
    execFileSync('c++', ['-std=c++20', '-Wall', '-Werror', '-o', program, sourcePath]);
    const actual = execFileSync(program, { encoding: 'utf8' }).trim().split('\n');
    // A structure or member whose layout differs shows by name.
    expect(actual).toEqual(expected);
    // And the comparison is a real one: what 1.0.20 declares of the generated selection (platform
    // extensions other than Vulkan are left out of it), core and extensions, Vulkan included.
    const compared = expected.filter((l) => l.includes(' size ')).length;
    expect(compared).toBeGreaterThanOrEqual(200);
    expect(expected).toContain('XrSystemProperties.graphicsProperties offset 284');
    expect(expected).toContain('XrInstanceCreateInfo size 328 align 8');
    expect(expected.some((l) => l.startsWith('XrSwapchainImageVulkanKHR.image offset'))).toBe(true);
    expect(expected.some((l) => l.startsWith('XrHandJointLocationsEXT.jointLocations offset'))).toBe(true);
  });
});
