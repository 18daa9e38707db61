// This package's Vulkan loader as the process's libvulkan.so.1 (provideProcessVulkanLoader,
// libkhronos_vulkan_process_loader.so). Monado links against libvulkan.so.1 and calls that
// library's vkGetInstanceProcAddr — for its own compositor and with the application's VkInstance —
// so an application whose instance comes from this package's loader needs this package's loader
// there. Every case runs in a child process (fixtures/): providing the loader cannot be undone, and
// the Khronos loader aborts the process it runs in when handed an instance it does not know.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { missingSystemComponent } from '../helpers/system.js';
import { testNativeDir } from '../helpers/paths.js';
import { LAVAPIPE_MANIFEST, VALIDATION_MANIFEST, layerFromManifest } from '../vulkan-native/helpers.js';
import { FULL_SESSION_STATES, monado, reportFields, runProbeChild, runSessionChild } from './process-loader-helpers.js';

const KHRONOS_VULKAN_LOADER = '/usr/lib/x86_64-linux-gnu/libvulkan.so.1';
const missing = missingSystemComponent({
  'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST],
  'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': [VALIDATION_MANIFEST],
  'the Khronos Vulkan loader (libvulkan1)': [KHRONOS_VULKAN_LOADER],
  'the xr_vulkan_frames test library (built with the system OpenXR and Vulkan headers)': [
    path.join(testNativeDir, 'xr_vulkan_frames', 'libkl_xr_vulkan_frames.so'),
  ],
});
const PROCESS_LOADER = /\/libkhronos_vulkan_process_loader\.so$/;

describe.skipIf(missing !== null)('the process-wide Vulkan loader library', () => {
  it('VK-CH-4: once provided, dlopen("libvulkan.so.1") is this package\'s loader (glibc matches its SONAME), again is a no-op; its vkGetInstanceProcAddr answers NULL and logs for a Khronos loader instance and a made-up handle', () => {
    const child = runProbeChild('unknown-instance');
    const out = child.steps['unknown-instance'];
    expect(out, child.output).toBeDefined();
    expect(child.status).toBe(0);
    expect((out?.provided as { kind: string }).kind).toBe('this-package');
    expect((out?.provided as { path: string }).path).toMatch(PROCESS_LOADER);
    expect(out?.again).toEqual(out?.provided);
    expect(out?.state).toEqual(out?.provided);
    // The library opened by name answers the global commands (it is ours: the Khronos loader would
    // give its own instance's commands, not NULL).
    expect(out?.ourGipaGlobal).toBe(true);
    expect(out?.khronosCreate).toBe(0);
    expect(out?.khronosInstance).toBe(true);
    expect(out?.ourGipaKhronosInstance).toBe('0');
    expect(out?.ourGipaMadeUp).toBe('0');
    const logs = out?.logs as string[];
    expect(logs[0]).toMatch(/^info: this process's libvulkan\.so\.1 is this package's Vulkan loader: .*libkhronos_vulkan_process_loader\.so$/);
    expect(logs.slice(1)).toEqual([
      expect.stringMatching(/^error: vkGetInstanceProcAddr\(0x[0-9a-f]+, vkEnumeratePhysicalDevices\): not an instance this loader created/),
      'error: vkGetInstanceProcAddr(0x1234, vkCreateDevice): not an instance this loader created (or it was destroyed); NULL',
    ]);
  });

  it('refused with VulkanProcessLoaderError naming the library when the Khronos loader is already the process\'s libvulkan.so.1', () => {
    const child = runProbeChild('other-first');
    const out = child.steps['other-first'];
    expect(out, child.output).toBeDefined();
    const before = out?.before as { kind: string; path: string };
    expect(before.kind).toBe('other');
    expect(before.path).toMatch(/\/libvulkan\.so\.1$/);
    expect(out?.error).toEqual({
      name: 'VulkanProcessLoaderError',
      result: 'VK_ERROR_INITIALIZATION_FAILED',
      library: before.path,
      message: expect.stringContaining(`another libvulkan.so.1 is already loaded in this process: ${before.path}`),
    });
    expect(out?.after).toEqual(before);
    expect(out?.logs).toEqual([expect.stringContaining(`error: another libvulkan.so.1 is already loaded in this process: ${before.path}`)]);
  });

  it('refused naming the library when another object already exports vkGetInstanceProcAddr to the whole process (RTLD_GLOBAL): a runtime would bind to it first', () => {
    const library = layerFromManifest(VALIDATION_MANIFEST, 'explicit').libraryPath;
    const child = runProbeChild('global-symbol', library);
    const out = child.steps['global-symbol'];
    expect(out, child.output).toBeDefined();
    expect(out?.error).toEqual({
      name: 'VulkanProcessLoaderError',
      result: 'VK_ERROR_INITIALIZATION_FAILED',
      library: expect.stringMatching(/\/libVkLayer_khronos_validation\.so$/),
      message: expect.stringMatching(/vkGetInstanceProcAddr is already exported to the whole process by \S*libVkLayer_khronos_validation\.so; a runtime would bind to it/),
    });
    expect(out?.after).toEqual({ kind: 'none', path: null });
  });
});

describe.skipIf(missing !== null)('the C application\'s session on the simulated runtime, with and without the process loader', () => {
  it.each([[false], [true]])('process loader provided: %s — 20 frames rendered, every frame\'s centre texels reach the runtime as drawn, states to exiting', (withLoader) => {
    const child = runSessionChild(simulatedRuntime(), {}, withLoader, 'session', 20);
    const ran = child.steps.ran;
    expect(ran, child.output).toBeDefined();
    expect(ran?.rc, String(ran?.report)).toBe(0);
    const f = reportFields(String(ran?.report));
    expect(f.states).toBe(FULL_SESSION_STATES);
    expect(Number(f.rendered)).toBeGreaterThanOrEqual(20);
    expect(f.readback).toBe(String(2 * Number(f.rendered)));
    expect(f.mismatches).toBe('0');
    expect(f.validation).toBe('0');
    expect((ran?.after as { kind: string }).kind).toBe(withLoader ? 'this-package' : 'none');
  });
});

describe.skipIf(missing !== null || monado.skip !== null)('the C application\'s Vulkan-rendered session on Monado', () => {
  it('XR-CI-5: with the process loader provided, 40 frames: both eyes\' swapchain images acquired, cleared, released and submitted every frame with no error; states to exiting; no readback (not offered)', () => {
    const child = runSessionChild(monado.manifest ?? '', monado.processEnv, true, 'session', 40);
    const ran = child.steps.ran;
    expect(ran, child.output).toBeDefined();
    expect(ran?.rc, String(ran?.report)).toBe(0);
    expect((child.steps.published?.provided as { kind: string }).kind).toBe('this-package');
    const f = reportFields(String(ran?.report));
    // Monado offers R8G8B8A8_UNORM (37); its xrWaitFrame says shouldRender for every frame of a running session.
    expect(f.format).toBe('37');
    expect(f.states).toBe(FULL_SESSION_STATES);
    expect(Number(f.rendered)).toBeGreaterThanOrEqual(40);
    // Frames Monado did not ask to render: only while the session is synchronized but not yet (or no longer) visible.
    expect(Number(f.frames) - Number(f.rendered)).toBeLessThanOrEqual(5);
    expect(f.readback).toBe('unsupported');
    expect(f.validation).toBe('0');
    expect(String(ran?.report)).toMatch(/ destroyed$/);
  });

  it('without it, the process aborts after xrCreateVulkanInstanceKHR, inside Monado\'s libvulkan (the Khronos loader) handed this package\'s instance', () => {
    const child = runSessionChild(monado.manifest ?? '', monado.processEnv, false, 'session', 40);
    expect((child.steps.published?.before as { kind: string }).kind).toBe('none');
    expect(child.steps.ran, child.output).toBeUndefined();
    expect(child.signal).toBe('SIGABRT');
    expect(child.output).toMatch(/xrCreateVulkanInstanceKHR/);
  });
});
