// The C ABI for native callers in the same process: after the application publishes a plan,
// native code that only uses the addon's exported functions (test/native/vulkan_c_abi) lists
// extensions, creates an instance, a device and a queue, and destroys them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/native.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { driver, layer, mappedLibraries, plan, testLibrary } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const addonPath = path.join(packageRoot, 'build/Release/khronos_loader.node');
const run = koffi.load(testLibrary('vulkan_c_abi', 'kl_vk_c_abi')).func('int kl_vk_c_abi_run(const char*, _Out_ char* report, size_t)');

function runNative(): { rc: number; report: string } {
  const buffer = Buffer.alloc(512);
  const rc = run(addonPath, buffer, buffer.length) as number;
  return { rc, report: buffer.toString('utf8', 0, buffer.indexOf(0)) };
}

describe('the exported C functions for native callers', () => {
  it('VK-CH-4: with a published plan, native code creates an instance, a device and a queue through the exports only; the libraries unload after', () => {
    publishVulkanPlan(
      plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))], [layer('VK_LAYER_KLTEST_a', testLibrary('vulkan_test_layers', 'kl_vk_layer_a'))]),
    );
    const { rc, report } = runNative();
    expect(report).toMatch(/^version=\d+ extensions=2 devices=1 name=kl-v7\|c-abi>VK_LAYER_KLTEST_a@2 queue=ok wait=0 destroyed$/);
    expect(rc).toBe(0);
    expect(mappedLibraries('libkl_vk_driver_v7.so')).toEqual([]);
    expect(mappedLibraries('libkl_vk_layer_a.so')).toEqual([]);
  });

  it('VK-CH-4: publishing again replaces the snapshot', () => {
    publishVulkanPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v6'))]));
    expect(runNative().report).toContain('name=kl-v6|c-abi queue=ok');
  });
});
