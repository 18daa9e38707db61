// The typed XR_KHR_vulkan_enable2 API refuses misuse with typed errors and never reaches
// the runtime or the driver with a dead handle: swapchain calls out of order or after destroy,
// endFrame naming a destroyed swapchain, the Vulkan device or instance destroyed under a live
// session, swapchains on a headless session, wrong arguments. Simulated runtime, lavapipe.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import type { Session } from '../../lib/openxr/api/session.js';
import type { Swapchain } from '../../lib/openxr/vulkan/swapchain.js';
import type { VulkanGraphics } from '../../lib/openxr/vulkan/graphics.js';
import { VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import { createLoader as createVulkanLoader } from '../../lib/vulkan/loader.js';
import { VulkanError } from '../../lib/vulkan/errors.js';
import { openXrErrorFrom, vulkanErrorFrom } from '../helpers/errors.js';
import { missingSystemComponent } from '../helpers/system.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const missing = missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE] });
const VK_FORMAT_R8G8B8A8_UNORM = 37;

interface Rig {
  t: TestInstance;
  graphics: VulkanGraphics;
  session: Session;
  swapchain: Swapchain;
}

let rig: Rig | undefined;

function setUp(): Rig {
  const t = createTestInstance({ extensions: ['XR_KHR_vulkan_enable2'] });
  const system = t.instance.getSystem();
  const loader = createVulkanLoader({ platform: createLinuxPlatform({ env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } }) });
  const graphics = t.instance.createVulkanGraphics(system, { loader, applicationName: 'vulkan misuse test' });
  const session = t.instance.createSession(system, { graphics: { vulkan: graphics } });
  const swapchain = session.createSwapchain({ format: VK_FORMAT_R8G8B8A8_UNORM, width: 32, height: 32 });
  rig = { t, graphics, session, swapchain };
  return rig;
}

afterEach(() => {
  if (rig === undefined) return;
  if (!rig.session.isDestroyed) rig.session.destroy();
  if (!rig.graphics.instance.isDestroyed) rig.graphics.instance.destroy();
  rig.t.dispose();
  rig = undefined;
});

describe.skipIf(missing !== null)('XR_KHR_vulkan_enable2 misuse', () => {
  it('the graphics come back as typed Vulkan objects made through the runtime, the swapchain\'s images as typed Images', () => {
    const { graphics, session, swapchain } = setUp();
    expect(graphics.physicalDevice.properties.deviceName).toMatch(/llvmpipe/);
    expect(graphics.instance.enumeratePhysicalDevices().map((d) => d.handle)).toContain(graphics.physicalDevice.handle);
    expect(typeof graphics.device.handle).toBe('bigint');
    // The colour formats, then the depth formats lavapipe makes (XR_KHR_composition_layer_depth).
    expect(session.swapchainFormats().slice(0, 4)).toEqual([43, 50, 37, 44]);
    expect(session.swapchainFormats().slice(4)).toEqual(expect.arrayContaining([126, 124]));
    expect(swapchain.images.length).toBeGreaterThan(0);
    expect(swapchain.images.every((i) => typeof i.handle === 'bigint' && i.handle !== 0n && i.width === 32 && i.format === VK_FORMAT_R8G8B8A8_UNORM)).toBe(true);
  });

  it('acquire, wait and release out of order throw XR_ERROR_CALL_ORDER_INVALID; in order they work', () => {
    const { swapchain } = setUp();
    expect(openXrErrorFrom(() => swapchain.release()).result).toBe('XR_ERROR_CALL_ORDER_INVALID');
    expect(openXrErrorFrom(() => swapchain.wait()).result).toBe('XR_ERROR_CALL_ORDER_INVALID');
    const index = swapchain.acquire();
    expect(index).toBeGreaterThanOrEqual(0);
    expect(openXrErrorFrom(() => swapchain.release()).result).toBe('XR_ERROR_CALL_ORDER_INVALID'); // acquired, not waited
    expect(swapchain.wait(1e9)).toBe(true);
    swapchain.release();
    expect(openXrErrorFrom(() => swapchain.release()).result).toBe('XR_ERROR_CALL_ORDER_INVALID');
  });

  it('a destroyed swapchain (or one whose session is gone) throws XR_ERROR_HANDLE_INVALID; its images throw VulkanError', () => {
    const { session, swapchain, graphics } = setUp();
    const image = swapchain.images[0];
    if (image === undefined) throw new Error('no image');
    swapchain.destroy();
    expect(swapchain.isDestroyed).toBe(true);
    expect(openXrErrorFrom(() => swapchain.acquire()).result).toBe('XR_ERROR_HANDLE_INVALID');
    expect(openXrErrorFrom(() => swapchain.destroy()).result).toBe('XR_ERROR_HANDLE_INVALID');
    const cb = graphics.device.createCommandPool(graphics.queueFamilyIndex).allocateCommandBuffer().begin();
    expect(() => cb.clearColorImage(image, 'transfer-dst-optimal', 0, 0, 0, 1)).toThrow(VulkanError);
    const second = session.createSwapchain({ format: VK_FORMAT_R8G8B8A8_UNORM, width: 8, height: 8 });
    session.destroy();
    expect(second.isDestroyed).toBe(true);
    expect(openXrErrorFrom(() => second.acquire()).result).toBe('XR_ERROR_HANDLE_INVALID');
  });

  it('endFrame with a projection layer naming a destroyed swapchain throws XR_ERROR_HANDLE_INVALID; with live ones it ends the frame', async () => {
    const { session, swapchain } = setUp();
    const local = session.createReferenceSpace('local');
    await runUntil(session, () => session.state === 'focused');
    const views = new Float32Array(2 * VIEW_FLOATS);
    const layer = (sc: Swapchain) => ({
      type: 'projection' as const,
      space: local,
      views: [0, 1].map((eye) => ({ pose: views.subarray(eye * 11, eye * 11 + 7), fov: views.subarray(eye * 11 + 7, eye * 11 + 11), swapchain: sc })),
    });
    const frame = await session.waitFrame();
    session.beginFrame();
    session.locateViews(local, frame.predictedDisplayTime, views);
    swapchain.acquire();
    swapchain.wait();
    swapchain.release();
    session.endFrame({ layers: [layer(swapchain)] });
    await session.waitFrame();
    session.beginFrame();
    swapchain.destroy();
    expect(openXrErrorFrom(() => session.endFrame({ layers: [layer(swapchain)] })).result).toBe('XR_ERROR_HANDLE_INVALID');
  });

  it('the Vulkan device or instance destroyed under a live session throws VulkanError; after the session it goes', () => {
    const { session, graphics } = setUp();
    expect(() => graphics.device.destroy()).toThrow(VulkanError);
    expect(() => graphics.device.destroy()).toThrow(/renders with this Vulkan device: destroy it before the device/);
    expect(() => graphics.instance.destroy()).toThrow(VulkanError);
    expect(graphics.device.isDestroyed).toBe(false);
    expect(session.swapchainFormats().length).toBeGreaterThan(0); // the session still works
    session.destroy();
    graphics.device.destroy();
    expect(graphics.device.isDestroyed).toBe(true);
    graphics.instance.destroy();
  });

  it('destroying the OpenXR instance first destroys its sessions and lets the device go', () => {
    const { t, graphics, swapchain } = setUp();
    t.instance.destroy();
    expect(openXrErrorFrom(() => swapchain.acquire()).result).toBe('XR_ERROR_HANDLE_INVALID');
    graphics.instance.destroy();
    expect(graphics.device.isDestroyed).toBe(true);
  });

  it('wrong arguments throw TypeError; a headless session has no swapchains (KL_INVALID_STATE)', () => {
    const { session, swapchain, graphics } = setUp();
    expect(() => session.createSwapchain({ format: 'rgba' as unknown as number, width: 8, height: 8 })).toThrow(TypeError);
    expect(() => session.createSwapchain({ format: 37, width: 0, height: 8 })).toThrow(TypeError);
    expect(() => session.createSwapchain({ format: 37, width: 8, height: 8, usage: ['colour' as 'sampled'] })).toThrow(TypeError);
    expect(() => swapchain.wait(-1)).toThrow(TypeError);
    expect(() => session.endFrame({ layers: [{ type: 'quad' as 'projection', space: session.createReferenceSpace('local'), views: [] }] })).toThrow(TypeError);
    const cb = graphics.device.createCommandPool(graphics.queueFamilyIndex).allocateCommandBuffer().begin();
    const image = swapchain.images[0];
    if (image === undefined) throw new Error('no image');
    expect(() => cb.imageBarrier(image, { oldLayout: 'sideways' as 'general', newLayout: 'general', srcStageMask: 1, dstStageMask: 1 })).toThrow(TypeError);
    expect(() => cb.clearColorImage({} as typeof image, 'general', 0, 0, 0, 1)).toThrow(TypeError);
    expect(() => rig?.t.instance.createSession(rig.t.instance.getSystem(), { graphics: { vulkan: { device: null } } } as never)).toThrow(TypeError);
    const headless = createTestInstance();
    try {
      const plain = headless.instance.createSession(headless.instance.getSystem(), { headless: true });
      expect(() => plain.createSwapchain({ format: 37, width: 8, height: 8 })).toThrow(expect.objectContaining({ code: 'KL_INVALID_STATE', message: expect.stringMatching(/no graphics binding/) }));
    } finally {
      headless.dispose();
    }
  });

  it('a Vulkan call the runtime makes that fails (no driver; an unknown device extension) is a VulkanError with its VkResult, not a bogus handle', () => {
    const t = createTestInstance({ extensions: ['XR_KHR_vulkan_enable2'] });
    try {
      const system = t.instance.getSystem();
      const noDriver = createVulkanLoader({ platform: createLinuxPlatform({ env: { ...process.env, VK_DRIVER_FILES: '/nonexistent/icd.json' } }) });
      const instanceFailure = vulkanErrorFrom(() => t.instance.createVulkanGraphics(system, { loader: noDriver, applicationName: 'no driver' }));
      expect(instanceFailure.result).toBe('VK_ERROR_INCOMPATIBLE_DRIVER');
      expect(instanceFailure.message).toContain('xrCreateVulkanInstanceKHR');
      const lavapipe = createVulkanLoader({ platform: createLinuxPlatform({ env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } }) });
      const deviceFailure = vulkanErrorFrom(() =>
        t.instance.createVulkanGraphics(system, { loader: lavapipe, applicationName: 'bad extension', deviceExtensionNames: ['VK_KL_no_such_extension'] }),
      );
      expect(deviceFailure.result).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(deviceFailure.message).toContain('xrCreateVulkanDeviceKHR');
      // Nothing half-made stays behind: the same instance then makes working graphics.
      const graphics = t.instance.createVulkanGraphics(system, { loader: lavapipe, applicationName: 'after the failures' });
      expect(graphics.physicalDevice.properties.deviceName).toMatch(/llvmpipe/);
      graphics.instance.destroy();
    } finally {
      t.dispose();
    }
  });

  it('image views of swapchain images: usable while the swapchain lives, VulkanError after; wrong descriptors are TypeError', () => {
    const { session, graphics } = setUp();
    const storage = session.createSwapchain({ format: VK_FORMAT_R8G8B8A8_UNORM, width: 16, height: 16, usage: ['color-attachment', 'unordered-access'] });
    const image = storage.images[0];
    if (image === undefined) throw new Error('no image');
    const device = graphics.device;
    const view = device.createImageView(image);
    expect(typeof view.handle).toBe('bigint');
    const setLayout = device.createDescriptorSetLayout([{ binding: 0, descriptorType: 3, stageFlags: 0x20 }]);
    const set = device.createDescriptorPool(2, [{ type: 3, descriptorCount: 2 }]).allocateSet(setLayout);
    set.writeImages([{ binding: 0, descriptorType: 3, view, layout: 'general' }]);
    expect(() => set.writeImages([{ binding: 0, descriptorType: 3, view: image as never, layout: 'general' }])).toThrow(TypeError);
    expect(() => set.writeImages([{ binding: 0, descriptorType: 3, view, layout: 'upside-down' as 'general' }])).toThrow(TypeError);
    expect(() => device.createImageView(image, 0, 2)).toThrow(TypeError); // one array layer only
    view.destroy();
    const second = device.createImageView(image);
    storage.destroy();
    expect(second.isDestroyed).toBe(true);
    expect(() => set.writeImages([{ binding: 0, descriptorType: 3, view: second, layout: 'general' }])).toThrow(VulkanError);
    expect(() => device.createImageView(image)).toThrow(VulkanError);
  });

  it('everything dropped without destroy(), finalizers in the collector\'s order (work in flight too): the process survives and all is collected', () => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(repoRoot, 'test/openxr-api/fixtures/vulkan-gc-order.ts')], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE },
      timeout: 60_000,
    });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    // 6 rounds of XR instance, Vulkan instance, device, session, swapchain.
    expect(JSON.parse(child.stdout.trim().split('\n').pop() as string)).toEqual({ collected: 30 });
  }, 90_000);
});
