// The image commands (layout transitions, clears) recorded through the CommandEncoder on the
// swapchain images of an XR session rendering through Vulkan (lavapipe, simulated runtime): every
// frame's eye images reach the runtime in the colours the encoded stream cleared them to.
import { describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import type { ProjectionLayer } from '../../lib/openxr/api/session.js';
import { VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import { toAttachment, toTransfer } from '../../lib/tools/cli/vulkan-eyes.js';
import { CommandEncoder } from '../../lib/vulkan/api/index.js';
import { createLoader as createVulkanLoader } from '../../lib/vulkan/loader.js';
import { missingSystemComponent } from '../helpers/system.js';
import { createTestInstance, runUntil } from './helpers.js';
import { drainSubmittedPixels } from '../../lib/openxr/simulated-runtime.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const missing = missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE] });
const RGBA8 = 37;
const BGRA8 = 44;
const FRAMES = 12;

const colour = (frame: number, eye: number): [number, number, number, number] => [(frame * 19 + 5) & 255, eye === 0 ? 60 : 200, (frame * 7) & 255, 255];

describe.skipIf(missing !== null)('encoded command buffers on swapchain images', () => {
  it('NODE-1: imageBarrier and clearColorImage through the encoder: every frame reaches the runtime as cleared', async () => {
    const t = createTestInstance({ extensions: ['XR_KHR_vulkan_enable2'] });
    const system = t.instance.getSystem();
    const loader = createVulkanLoader({ platform: createLinuxPlatform({ env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } }) });
    const graphics = t.instance.createVulkanGraphics(system, { loader, applicationName: 'encoded eyes test' });
    try {
      const session = t.instance.createSession(system, { graphics: { vulkan: graphics } });
      const local = session.createReferenceSpace('local');
      await runUntil(session, () => session.state === 'focused');
      const format = session.swapchainFormats().find((f) => f === RGBA8 || f === BGRA8);
      expect(format).toBeDefined();
      const swapchains = [0, 1].map(() => session.createSwapchain({ format: format!, width: 16, height: 16, usage: ['color-attachment', 'transfer-dst'] }));
      const views = new Float32Array(2 * VIEW_FLOATS);
      const layers: ProjectionLayer[] = [
        {
          type: 'projection',
          space: local,
          views: swapchains.map((swapchain, eye) => ({ pose: views.subarray(eye * VIEW_FLOATS, eye * VIEW_FLOATS + 7), fov: views.subarray(eye * VIEW_FLOATS + 7, (eye + 1) * VIEW_FLOATS), swapchain })),
        },
      ];
      const encoder = new CommandEncoder(graphics.device.createCommandPool(graphics.queueFamilyIndex).allocateCommandBuffer(), swapchains.flatMap((s) => s.images));
      const fence = graphics.device.createFence();
      for (let n = 0; n < FRAMES; n++) {
        const frame = session.waitFrameSync();
        session.beginFrame();
        session.locateViews(local, frame.predictedDisplayTime, views);
        encoder.begin(1);
        swapchains.forEach((swapchain, eye) => {
          const image = encoder.slot(swapchain.images[swapchain.acquire()]!);
          swapchain.wait();
          const [r, g, b] = colour(n, eye);
          encoder.imageBarrier(image, toTransfer).clearColorImage(image, 'transfer-dst-optimal', r / 255, g / 255, b / 255, 1).imageBarrier(image, toAttachment);
        });
        expect(encoder.end()).toBe(6);
        graphics.queue.submit(encoder.commandBuffer, fence);
        expect(await fence.wait()).toBe(true);
        fence.reset();
        for (const swapchain of swapchains) swapchain.release();
        session.endFrame({ layers });
      }
      // Record k is the k-th frame ended with layers: frame k - 1 here.
      const pixels = drainSubmittedPixels(session);
      expect(pixels.length).toBe(2 * FRAMES);
      for (const p of pixels) {
        const rgba = colour(p.frameIndex - 1, p.viewIndex);
        expect([...p.bytes]).toEqual(format === BGRA8 ? [rgba[2], rgba[1], rgba[0], rgba[3]] : rgba);
      }
    } finally {
      graphics.device.waitIdle();
      t.dispose();
      if (!graphics.instance.isDestroyed) graphics.instance.destroy();
    }
  }, 60_000);
});
