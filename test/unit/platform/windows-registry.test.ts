// The Windows RegistryView over a key reader (lib/core/platform/windows-registry.ts): the shape
// the addon's windowsRegistryReadKey answers in, tested here with a reader over a map; the real
// reader runs under wine in npm run test:platforms.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import type { RegistryHive, RegistryValue } from '../../../lib/core/platform/platform.js';
import { registryViewFromReader, type RegistryKeyContents, type RegistryKeyReader } from '../../../lib/core/platform/windows-registry.js';
import { discover } from '../../../lib/openxr/discovery/discover.js';
import { discover as discoverVulkan } from '../../../lib/vulkan/discovery/discover.js';
import { layerManifest, makeTempRoot, put, runtimeManifest } from '../openxr/fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-winreg-'));
});
afterEach(() => cleanup());

/** A reader as the addon's: keys case-insensitive, null for a missing key, subkeys listed. */
function mapReader(keys: Readonly<Record<string, readonly RegistryValue[]>>, calls: string[] = []): RegistryKeyReader {
  return (hive: RegistryHive, key: string): RegistryKeyContents | null => {
    calls.push(`${hive}\\${key}`);
    const full = `${hive}\\${key}`.toLowerCase();
    const entry = Object.entries(keys).find(([k]) => k.toLowerCase() === full);
    const subkeys = Object.keys(keys)
      .filter((k) => k.toLowerCase().startsWith(`${full}\\`))
      .map((k) => k.slice(full.length + 1).split('\\')[0] ?? '');
    if (entry === undefined && subkeys.length === 0) return null;
    return { values: entry?.[1] ?? [], subkeys: [...new Set(subkeys)] };
  };
}

describe('Windows registry view over a key reader', () => {
  it('XR-RD-3: values and subkeys come from the reader; a missing key is undefined; a key that cannot be read is undefined and reported', () => {
    const calls: string[] = [];
    const view = registryViewFromReader(
      mapReader({ 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1': [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\rt\\rt.json' }], 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1\\ApiLayers\\Implicit': [] }, calls),
      true,
    );
    expect(view.os64Bit).toBe(true);
    expect(view.values('HKLM', 'SOFTWARE\\Khronos\\OpenXR\\1')).toEqual([{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\rt\\rt.json' }]);
    expect(view.subkeys?.('HKLM', 'SOFTWARE\\Khronos\\OpenXR\\1')).toEqual(['ApiLayers']);
    expect(view.values('HKCU', 'SOFTWARE\\Khronos\\OpenXR\\1')).toBeUndefined();
    expect(calls).toEqual(['HKLM\\SOFTWARE\\Khronos\\OpenXR\\1', 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1', 'HKCU\\SOFTWARE\\Khronos\\OpenXR\\1']);

    const errors: string[] = [];
    const denied = registryViewFromReader(
      () => {
        throw new Error('cannot read registry key HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos: Access denied. (error 5)');
      },
      false,
      (message) => errors.push(message),
    );
    expect(denied.values('HKLM', 'SOFTWARE\\Khronos')).toBeUndefined();
    expect(denied.os64Bit).toBe(false);
    expect(errors).toEqual(['cannot read registry key HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos: Access denied. (error 5)']);
  });

  it('XR-RD-3, XR-LD-4: OpenXR discovery reads ActiveRuntime and the DWORD-0 ApiLayers values through the reader', () => {
    put(root, 'C/rt/rt.json', runtimeManifest('.\\rt.dll'));
    put(root, 'C/rt/rt.dll', 'x');
    put(root, 'C/layers/a.json', layerManifest({ name: 'XR_APILAYER_a', library_path: 'a.dll' }));
    put(root, 'C/layers/b.json', layerManifest({ name: 'XR_APILAYER_b', library_path: 'b.dll' }));
    const registry = registryViewFromReader(
      mapReader({
        'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1': [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\rt\\rt.json' }],
        'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1\\ApiLayers\\Explicit': [
          { name: 'C:\\layers\\a.json', type: 'REG_DWORD', data: 0 },
          { name: 'C:\\layers\\b.json', type: 'REG_DWORD', data: 1 },
        ],
      }),
      true,
    );
    const d = discover({ platform: createFixturePlatform({ root, os: 'windows', registry }), logWriter: () => {} });
    expect(d.runtime?.source).toBe('registry');
    expect(d.runtime?.libraryPath).toBe('C:\\rt\\.\\rt.dll');
    expect(d.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_a']);
  });

  it('VK-LD-3: Vulkan discovery reads the ExplicitLayers DWORD-0 values through the reader, HKCU too when not elevated', () => {
    const layer = (name: string) =>
      JSON.stringify({ file_format_version: '1.2.0', layer: { name, type: 'GLOBAL', library_path: `${name}.dll`, api_version: '1.3.0', implementation_version: '1', description: name } });
    put(root, 'C/vk/a.json', layer('VK_LAYER_a'));
    put(root, 'C/vk/u.json', layer('VK_LAYER_u'));
    const read = mapReader({
      'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': [{ name: 'C:\\vk\\a.json', type: 'REG_DWORD', data: 0 }],
      'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': [{ name: 'C:\\vk\\u.json', type: 'REG_DWORD', data: 0 }],
    });
    const names = (elevated: boolean): string[] =>
      discoverVulkan({ platform: createFixturePlatform({ root, os: 'windows', registry: registryViewFromReader(read, true), elevated }), logWriter: () => {} }).layers.map((l) => l.name);
    expect(names(false)).toEqual(['VK_LAYER_a', 'VK_LAYER_u']);
    expect(names(true)).toEqual(['VK_LAYER_a']);
  });
});
