// The C ABI for native callers in the same process: after the application publishes a plan,
// native code that only uses the addon's exported functions (test/native/vulkan_c_abi) lists
// extensions, creates an instance, a device and a queue, and destroys them; a wrong dispatchable
// handle ends the process in abort() with the Khronos loader's words, never in a jump through it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizerEnv } from '../helpers/sanitizer-env.js';
import { addonBinaryPath } from '../../lib/core/native/load.js';
import { repoRoot } from '../helpers/paths.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { driver, layer, mappedLibraries, plan, testLibrary } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
// The addon this process loaded (an instrumented build under the sanitizers).
const addonPath = addonBinaryPath();
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
    expect(report).toMatch(/^version=\d+ extensions=5 devices=1 name=kl-v7\|c-abi>VK_LAYER_KLTEST_a@2 queue=ok wait=0 destroyed$/);
    expect(rc).toBe(0);
    expect(mappedLibraries('libkl_vk_driver_v7.so')).toEqual([]);
    expect(mappedLibraries('libkl_vk_layer_a.so')).toEqual([]);
  });

  it('VK-CH-4: publishing again replaces the snapshot', () => {
    publishVulkanPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v6'))]));
    expect(runNative().report).toContain('name=kl-v6|c-abi queue=ok');
  });

  // What the Khronos loader's trampolines do with a handle that is not theirs: a fatal
  // "<command>: Invalid <parameter> [VUID-<command>-<parameter>-parameter]", then abort().
  function misuse(what: string) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/vulkan-native/fixtures/c-abi-misuse.ts'), what], {
      cwd: repoRoot,
      env: { ...process.env, ...sanitizerEnv({ deliberateCrash: true }) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { signal: r.signal, status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it.each([
    ['command-buffer-null', 'vkCmdPushConstants', 'commandBuffer', '(nil)'],
    ['command-buffer-foreign', 'vkCmdPushConstants', 'commandBuffer', '0x'],
    ['queue-foreign', 'vkQueueWaitIdle', 'queue', '0x'],
    ['physical-device-null', 'vkGetPhysicalDeviceProperties', 'physicalDevice', '(nil)'],
    ['physical-device-foreign', 'vkGetPhysicalDeviceProperties', 'physicalDevice', '0x'],
    ['instance-foreign', 'vkEnumeratePhysicalDevices', 'instance', '0x'],
  ])('VK-CH-2: %s: the exported %s refuses the %s handle with the Khronos loader\'s message and abort(), not a crash', (what, command, handle, value) => {
    const r = misuse(what);
    expect(r.stdout).not.toContain('survived');
    expect(r.stderr).toContain(`khronos-loader: ${command}: Invalid ${handle} [VUID-${command}-${handle}-parameter] (${value}`);
    expect(r.signal).toBe('SIGABRT');
  });

  it('VK-CH-2: vkDestroyDevice(NULL) and vkDestroyInstance(NULL) are valid and do nothing; the real ones still work after', () => {
    const r = misuse('destroy-null');
    expect(r.stderr).not.toContain('Invalid');
    expect(r.stdout.trim()).toBe('destroy-null ok');
    expect(r.status).toBe(0);
  });
});
