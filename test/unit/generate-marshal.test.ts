// The generated bindings' model (scripts/generator/marshal-model.ts): how the registry's members
// and parameters are classified for the table-driven marshaller, checked on commands and
// structures whose shapes the specification fixes.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRegistryDir } from '../../scripts/generate.js';
import { OPENXR } from '../../scripts/generator/apis.js';
import { dispatchCommands } from '../../scripts/generator/commands.js';
import { buildMarshalModel, takesArgument, type MarshalModel } from '../../scripts/generator/marshal-model.js';
import { readRegistry } from '../../scripts/generator/registry.js';
import { RegistrySelector } from '../../scripts/generator/select.js';

function model(): MarshalModel {
  const registry = readRegistry(readFileSync(path.join(defaultRegistryDir(), 'xr.xml'), 'utf8'), 'xr.xml', 'openxr');
  const selection = new RegistrySelector(registry, OPENXR.platformInclude).select();
  return buildMarshalModel(selection, dispatchCommands(OPENXR, selection));
}

const m = model();
const command = (name: string) => {
  const c = m.commands.find((x) => x.name === name);
  if (c === undefined) throw new Error(`no command ${name}`);
  return c;
};
const struct = (name: string) => {
  const s = m.structs.find((x) => x.name === name);
  if (s === undefined) throw new Error(`no structure ${name}`);
  return s;
};
const shapes = (fields: readonly { name: string; shape: string }[]) => Object.fromEntries(fields.map((f) => [f.name, f.shape]));

describe('generated bindings: the marshal model', () => {
  it('GEN: a two-call command pairs its capacity, count output and array; only the inputs take arguments', () => {
    const c = command('xrEnumerateSwapchainFormats');
    expect(shapes(c.params)).toEqual({ session: 'Value', formatCapacityInput: 'Capacity', formatCountOutput: 'CountOutput', formats: 'Array' });
    const formats = c.params[3];
    expect(formats?.lenIndex).toBe(1);
    expect(formats?.countOutputIndex).toBe(2);
    expect(c.params.filter(takesArgument).map((p) => p.name)).toEqual(['session']);
    // xrPathToString's char buffer is a two-call string.
    expect(shapes(command('xrPathToString').params)).toEqual({ instance: 'Value', path: 'Value', bufferCapacityInput: 'Capacity', bufferCountOutput: 'CountOutput', buffer: 'Array' });
  });

  it('GEN: structure members: type, next, counts of arrays and of string lists, fixed strings, nested structures', () => {
    const create = struct('XrInstanceCreateInfo');
    expect(shapes(create.fields)).toEqual({
      type: 'StructureType',
      next: 'Next',
      createFlags: 'Value',
      applicationInfo: 'Value',
      enabledApiLayerCount: 'Count',
      enabledApiLayerNames: 'StringArray',
      enabledExtensionCount: 'Count',
      enabledExtensionNames: 'StringArray',
    });
    expect(create.structureType).toBe('XR_TYPE_INSTANCE_CREATE_INFO');
    const app = struct('XrApplicationInfo').fields.find((f) => f.name === 'applicationName');
    expect(app).toEqual(expect.objectContaining({ scalar: 'Char', shape: 'Value', fixedCount: 128 }));
    // Two-call arrays inside an output structure (XrVisibilityMaskKHR).
    const mask = struct('XrVisibilityMaskKHR');
    expect(shapes(mask.fields)).toEqual(
      expect.objectContaining({ vertexCapacityInput: 'Capacity', vertexCountOutput: 'CountOutput', vertices: 'Array', indexCapacityInput: 'Capacity', indices: 'Array' }),
    );
  });

  it('GEN: next chains come from structextends, base-header pointers from parentstruct', () => {
    const extenders = struct('XrSystemProperties').extenders.map((i) => m.structs[i]?.name);
    expect(extenders).toContain('XrSystemHandTrackingPropertiesEXT');
    expect(extenders).not.toContain('XrSpaceVelocity');
    expect(struct('XrSpaceLocation').extenders.map((i) => m.structs[i]?.name)).toContain('XrSpaceVelocity');
    expect(struct('XrHapticBaseHeader').children.map((i) => m.structs[i]?.name)).toContain('XrHapticVibration');
    const layers = struct('XrFrameEndInfo').fields.find((f) => f.name === 'layers');
    expect(layers?.shape).toBe('PointerArray');
    expect(m.structs[layers?.struct ?? -1]?.name).toBe('XrCompositionLayerBaseHeader');
  });

  it('GEN: core commands know their version, extension commands their extensions; no command is left out', () => {
    expect(command('xrLocateSpaces').coreVersion).toBe('XR_VERSION_1_1');
    expect(command('xrGetSystem').coreVersion).toBe('XR_VERSION_1_0');
    expect(command('xrCreateHandTrackerEXT').extensions).toEqual(['XR_EXT_hand_tracking']);
    expect(command('xrCreateHandTrackerEXT').createsHandle).toBe(true);
    expect(command('xrDestroyHandTrackerEXT').destroysHandle).toBe(true);
    expect(m.skipped).toEqual([]);
    expect(m.commands.length).toBeGreaterThan(450);
    // Tables, not code per command: far fewer call thunks than commands.
    expect(m.thunks.length).toBeLessThan(m.commands.length / 10);
  });
});
