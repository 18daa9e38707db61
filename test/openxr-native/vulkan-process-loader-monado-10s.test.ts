// The process Vulkan loader on Monado for 10 s (in the sequential `timing` project: the frame count depends on
// Monado's pacing, 20 Hz with its null compositor): the C application
// (test/native/xr_vulkan_frames, the addon's exported functions only) renders through this
// package's Vulkan loader, provided as the process's libvulkan.so.1, in a child process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingSystemComponent } from '../helpers/system.js';
import { testNativeDir } from '../helpers/paths.js';
import { LAVAPIPE_MANIFEST, VALIDATION_MANIFEST } from '../vulkan-native/helpers.js';
import { FULL_SESSION_STATES, monado, reportFields, runSessionChild } from './process-loader-helpers.js';

const missing = missingSystemComponent({
  'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST],
  'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': [VALIDATION_MANIFEST],
  'the xr_vulkan_frames test library (built with the system OpenXR and Vulkan headers)': [
    path.join(testNativeDir, 'xr_vulkan_frames', 'libkl_xr_vulkan_frames.so'),
  ],
});
const MONADO_RATE_HZ = 20;

describe.skipIf(missing !== null || monado.skip !== null)('10 s of Vulkan-rendered frames on Monado through the process loader', () => {
  it('XR-CI-5: 10 s: both eyes\' swapchain images acquired, cleared, released and submitted every frame Monado asked for, with no error; about 20 Hz; states to exiting', () => {
    const child = runSessionChild(monado.manifest ?? '', monado.processEnv, true, 'session-seconds', 10, 90_000);
    const ran = child.steps.ran;
    expect(ran, child.output).toBeDefined();
    expect(ran?.rc, String(ran?.report)).toBe(0);
    const f = reportFields(String(ran?.report));
    process.stderr.write(`Monado, 10 s through the process Vulkan loader: ${f.rendered} frames rendered of ${f.frames}\n`);
    expect(f.states).toBe(FULL_SESSION_STATES);
    expect(Number(f.rendered)).toBeGreaterThanOrEqual(10 * MONADO_RATE_HZ * 0.75);
    expect(Number(f.rendered)).toBeLessThanOrEqual(10 * MONADO_RATE_HZ * 1.25);
    // Frames Monado did not ask to render: only while the session is synchronized but not yet (or no longer) visible.
    expect(Number(f.frames) - Number(f.rendered)).toBeLessThanOrEqual(5);
    expect(f.readback).toBe('unsupported');
    expect(f.validation).toBe('0');
  }, 120_000);
});
