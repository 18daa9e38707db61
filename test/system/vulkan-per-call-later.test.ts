// The Vulkan 1.3 and 1.4 commands per call (docs/usage.md, "Vulkan 1.3 and 1.4 commands per call")
// on the real driver (Mesa lavapipe, or the one KHRONOS_LOADER_VK_DRIVER_JSON names) with
// VK_LAYER_KHRONOS_validation where it is installed: setViewportWithCount, setScissorWithCount,
// pushConstants2, setRenderingAttachmentLocations and blitImage give what the encoder's recording of
// the same commands gives, queue.submit2 what queue.submit gives; bad input is a typed error before
// any Vulkan call. The Vulkan 1.4 commands are recorded where the driver is of Vulkan 1.4, refused
// (typed, naming the command or the feature) where it is not.
import { afterEach, describe, expect, it } from 'vitest';
import { saxpySpirv } from '../../examples/compute.js';
import { createSaxpyObjects } from '../../lib/tools/bench/vulkan-record.js';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, CommandStreamError, Format, VK_API_VERSION_1_3, VK_API_VERSION_1_4, VulkanError, type CommandBuffer, type Device, type Image, type Instance, type OwnedImage, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { errorFrom } from '../helpers/errors.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver();
const WARNING = 0x100;
const HOST = 0x2 | 0x4;
const N = 1024;
const W = 32;
// VkShaderStageFlags, VkPipelineStageFlags, VkAccessFlags, VkImageLayout
const STAGE_COMPUTE = 0x20;
const PS_COMPUTE = 0x800;
const PS_TRANSFER = 0x1000;
const PS_TOP = 0x1;
const PS_COLOR = 0x400;
const SHADER_WRITE = 0x40;
const SHADER_READ = 0x20;
const TRANSFER_READ = 0x800;
const TRANSFER_WRITE = 0x1000;
const COLOR_WRITE = 0x100;
const TRANSFER_SRC = 6;
const TRANSFER_DST = 7;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

/** An instance and a device of the driver's version (Vulkan 1.4 where it has it), validation on. */
function setup(features: { synchronization2?: boolean; dynamicRenderingLocalRead?: boolean } = {}) {
  const probe = realDriverLoader().createInstance({ applicationName: 'kl-per-call-later-probe', apiVersion: VK_API_VERSION_1_3 });
  const version = probe.enumeratePhysicalDevices()[0]!.properties.apiVersion;
  probe.destroy();
  const has14 = version.major > 1 || version.minor >= 4;
  const instance = realDriverLoader().createInstance({
    applicationName: 'kl-per-call-later-test',
    apiVersion: has14 ? VK_API_VERSION_1_4 : VK_API_VERSION_1_3,
    enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
  });
  open.push(instance);
  instance.startDebugMessenger();
  const pd = instance.enumeratePhysicalDevices()[0]!;
  const dev = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true, synchronization2: features.synchronization2 ?? true, ...(features.dynamicRenderingLocalRead === true && { dynamicRenderingLocalRead: true }) } });
  const warnings = () => instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => `${m.messageIdName}: ${m.message}`);
  return { instance, pd, dev, has14, warnings };
}

async function submitted(dev: Device, cb: CommandBuffer): Promise<void> {
  const fence = dev.createFence();
  dev.queue(0).submit(cb, fence);
  expect(await fence.wait()).toBe(true);
  fence.destroy();
}

function image(pd: PhysicalDevice, dev: Device, width: number, usage: number): OwnedImage {
  const i = dev.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width, height: width }, usage });
  i.bindMemory(dev.allocateMemory(i.memoryRequirements.size, pd.requireMemoryType(i.memoryRequirements.memoryTypeBits, 0)));
  return i;
}

function hostBuffer(pd: PhysicalDevice, dev: Device, bytes: number, usage: number) {
  const b = dev.createBuffer({ size: bytes, usage });
  b.bindMemory(dev.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
  return b;
}

/** Expects `call` to throw an `error` whose message matches `message`. */
function refused(call: () => unknown, error: abstract new (...args: never[]) => Error, message: RegExp): void {
  expect(errorFrom(error, call).message).toMatch(message);
}

const viewport = { x: 0, y: 0, width: W, height: W, minDepth: 0, maxDepth: 1 };
const scissor = { offset: { x: 0, y: 0 }, extent: { width: W, height: W } };
const params = (a: number) => {
  const p = new DataView(new ArrayBuffer(8));
  p.setFloat32(0, a, true);
  p.setUint32(4, N, true);
  return new Uint32Array(p.buffer);
};

describe.skipIf(skip !== null)('the Vulkan 1.3 and 1.4 commands per call on the real driver', () => {
  it('(VK-PC-1) setViewportWithCount, setScissorWithCount and pushConstants2 per call give the bytes the encoder\'s recording gives (pushConstants2 where the device is of Vulkan 1.4, else refused naming vkCmdPushConstants2 before any Vulkan call); validation silent', async () => {
    const { pd, dev, has14, warnings } = setup();
    const s = createSaxpyObjects(pd, dev, { spirv: saxpySpirv(), elements: N, memoryFlags: HOST, usage: 0x1 | 0x2 });
    const z = hostBuffer(pd, dev, N * 4, 0x2);
    const x = new Float32Array(s.x.memory!.map());
    const y = new Float32Array(s.y.memory!.map());
    const out = new Uint8Array(z.memory!.map());
    const reset = () => {
      for (let i = 0; i < N; i++) {
        x[i] = Math.sin(i) * 3.7;
        y[i] = (i % 97) / 7;
      }
      out.fill(0);
    };
    const pool = dev.createCommandPool(0);
    const run = async (cb: CommandBuffer) => {
      reset();
      await submitted(dev, cb);
      return out.slice();
    };
    const pushes = [params(0.5), params(-2.25), params(3)];
    // Per call: the 1.3 dynamic state, then three pushes (pushConstants2 where the device has it) and dispatches.
    const perCall = (push2: boolean) => {
      const cb = pool.allocateCommandBuffer().begin(1).setViewportWithCount([viewport]).setScissorWithCount([scissor]).bindPipeline(s.pipeline).bindDescriptorSet(s.layout, s.set);
      for (const p of pushes) {
        if (push2) cb.pushConstants2({ layout: s.layout, stageFlags: STAGE_COMPUTE, offset: 0, values: p });
        else cb.pushConstants(s.layout, STAGE_COMPUTE, 0, p);
        cb.dispatch(N / 256).pipelineBarrier(PS_COMPUTE, PS_COMPUTE, SHADER_WRITE, SHADER_READ | SHADER_WRITE);
      }
      return cb.pipelineBarrier(PS_COMPUTE, PS_TRANSFER, SHADER_WRITE, TRANSFER_READ).copyBuffer(s.y, z, N * 4).end();
    };
    const expected = await run(perCall(false));
    // The saxpy ran (y changed from its input).
    const input = new Float32Array(N).map((_, i) => (i % 97) / 7);
    expect(Buffer.from(expected).equals(Buffer.from(input.buffer))).toBe(false);

    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), [s.pipeline, s.layout, s.set, s.y, z]);
    const encoded = (push2: boolean) => {
      const e = encoder.begin(1).vkCmdSetViewportWithCount(1, [viewport]).vkCmdSetScissorWithCount(1, [scissor]).bindPipeline(0).bindDescriptorSet(1, 2);
      for (const p of pushes) {
        if (push2) e.vkCmdPushConstants2({ layout: 1, stageFlags: STAGE_COMPUTE, offset: 0, size: 8, pValues: new Uint8Array(p.buffer) });
        else e.pushConstants(1, STAGE_COMPUTE, 0, p);
        e.dispatch(N / 256).pipelineBarrier(PS_COMPUTE, PS_COMPUTE, SHADER_WRITE, SHADER_READ | SHADER_WRITE);
      }
      return e.pipelineBarrier(PS_COMPUTE, PS_TRANSFER, SHADER_WRITE, TRANSFER_READ).copyBuffer(3, 4, N * 4);
    };
    expect(encoded(false).end()).toBe(15);
    expect(Buffer.from(await run(encoder.commandBuffer)).equals(Buffer.from(expected))).toBe(true);
    if (has14) {
      expect(Buffer.from(await run(perCall(true))).equals(Buffer.from(expected))).toBe(true);
      expect(encoded(true).end()).toBe(15);
      expect(Buffer.from(await run(encoder.commandBuffer)).equals(Buffer.from(expected))).toBe(true);
    } else {
      // A Vulkan 1.3 device has no vkCmdPushConstants2: refused per call (typed) and by the encoder's native check.
      const cb = pool.allocateCommandBuffer().begin(1);
      expect(() => cb.pushConstants2({ layout: s.layout, stageFlags: STAGE_COMPUTE, offset: 0, values: pushes[0]! })).toThrow(InvalidStateError);
      expect(() => cb.pushConstants2({ layout: s.layout, stageFlags: STAGE_COMPUTE, offset: 0, values: pushes[0]! })).toThrow(/pushConstants2: the device has no vkCmdPushConstants2 \(a core command of Vulkan 1.4/);
      expect(() => encoded(true).end()).toThrow(CommandStreamError);
      // Nothing was recorded: the buffer ends and runs empty.
      await submitted(dev, cb.end());
    }
    expect(warnings()).toEqual([]);
  });

  it('(VK-PC-1) the 1.3 and 1.4 commands per call refuse bad input with typed errors before any Vulkan call: wrong lengths, values, destroyed and other devices\' objects, outside recording, a feature the device lacks', () => {
    const { pd, dev, has14, warnings } = setup();
    const other = setup().dev;
    const layout = dev.createPipelineLayout([], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
    const otherLayout = other.createPipelineLayout([], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
    const gone = dev.createPipelineLayout([], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
    gone.destroy();
    const pool = dev.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    refused(() => cb.setViewportWithCount([viewport]), InvalidStateError, /setViewportWithCount: the command buffer is not recording/);
    cb.begin();
    refused(() => cb.setViewportWithCount([viewport, viewport]), InvalidArgumentError, /setViewportWithCount: viewports must hold 1 element \(the typed API enables no multiViewport\), got 2/);
    refused(() => cb.setViewportWithCount([]), InvalidArgumentError, /viewports must hold 1 element .*got 0/);
    refused(() => cb.setViewportWithCount([{ ...viewport, height: 0 }]), InvalidArgumentError, /setViewportWithCount: width must be above 0 and height not 0/);
    refused(() => cb.setViewportWithCount([{ ...viewport, minDepth: -1 }]), InvalidArgumentError, /minDepth and maxDepth must lie in \[0, 1\]/);
    refused(() => cb.setViewportWithCount([{ ...viewport, x: Number.NaN }]), InvalidArgumentError, /the viewport's numbers must be finite/);
    // The device's limits, as setViewport checks them (maxViewportDimensions, viewportBoundsRange).
    const limits = dev.limits;
    refused(() => cb.setViewportWithCount([{ ...viewport, width: limits.maxViewportDimensions[0] * 2 }]), InvalidArgumentError, /setViewportWithCount: viewports\[0\]\.width and \|viewports\[0\]\.height\| must be at most maxViewportDimensions/);
    refused(() => cb.setViewportWithCount([{ ...viewport, x: limits.viewportBoundsRange[0] * 2 }]), InvalidArgumentError, /setViewportWithCount: viewports\[0\]\.x, x \+ width, y and y \+ height must lie in viewportBoundsRange/);
    refused(() => cb.setScissorWithCount([scissor, scissor]), InvalidArgumentError, /setScissorWithCount: scissors must hold 1 element/);
    refused(() => cb.setScissorWithCount([{ offset: { x: -1, y: 0 }, extent: { width: 4, height: 4 } }]), InvalidArgumentError, /setScissorWithCount: the offset must not be negative/);
    refused(() => cb.setScissorWithCount([{ offset: { x: 0.5, y: 0 }, extent: { width: 4, height: 4 } }]), InvalidArgumentError, /scissors\[0\]\.offset\.x must be an int32/);
    refused(() => cb.setScissorWithCount([{ offset: { x: 0x7fff_fff0, y: 0 }, extent: { width: 0x100, height: 1 } }]), InvalidArgumentError, /x \+ width and y \+ height must stay below 2\^31/);
    const push = (l: unknown, offset = 0, values: ArrayBufferView = new Uint32Array(2)) => () => cb.pushConstants2({ layout: l as typeof layout, stageFlags: STAGE_COMPUTE, offset, values });
    refused(push(layout, 4), InvalidArgumentError, /pushConstants/);
    refused(push(layout, 0, new Uint32Array(3)), InvalidArgumentError, /pushConstants/);
    refused(push(otherLayout), InvalidArgumentError, /info\.layout \(a PipelineLayout\) belongs to another device/);
    refused(push(gone), VulkanError, /info\.layout \(a PipelineLayout\) was destroyed/);
    refused(push({}), InvalidArgumentError, /info\.layout must be a PipelineLayout/);
    if (!has14) refused(push(layout), InvalidStateError, /the device has no vkCmdPushConstants2/);
    // Outside dynamic rendering, and (inside it) on a device without dynamicRenderingLocalRead.
    refused(() => cb.setRenderingAttachmentLocations([0]), InvalidStateError, /setRenderingAttachmentLocations: not inside a rendering begun with vkCmdBeginRendering/);
    const target = image(pd, dev, W, 0x10);
    const view = dev.createImageView(target);
    cb.imageBarrier(target, { oldLayout: 'undefined', newLayout: 'color-attachment-optimal', srcStageMask: PS_TOP, dstStageMask: PS_COLOR, dstAccessMask: COLOR_WRITE });
    cb.beginRendering({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] });
    refused(() => cb.setRenderingAttachmentLocations([0, 1]), InvalidArgumentError, /setRenderingAttachmentLocations: locations\.length must be the rendering's 1 colour attachments, got 2/);
    refused(() => cb.setRenderingAttachmentLocations([-1]), InvalidArgumentError, /locations\[0\] must be an integer in \[0, 2\^32\)/);
    refused(() => cb.setRenderingAttachmentLocations([0]), InvalidStateError, /setRenderingAttachmentLocations: needs the dynamicRenderingLocalRead feature \(Vulkan 1.4\), and the device was created without it/);
    cb.endRendering().end();
    // The feature itself: only on a Vulkan 1.4 device.
    if (!has14) refused(() => setup({ dynamicRenderingLocalRead: true }), InvalidArgumentError, /createDevice: options\.enabledFeatures\.dynamicRenderingLocalRead needs a Vulkan 1.4 device, and this one is of Vulkan 1\.3/);
    expect(warnings()).toEqual([]);
  });

  it('(VK-PC-4) setRenderingAttachmentLocations on a device created with dynamicRenderingLocalRead gives the pixels the encoder\'s recording gives (Vulkan 1.4 drivers; on a Vulkan 1.3 driver such a device is refused with a typed error)', async () => {
    if (!setup().has14) {
      // Nothing to compare on a Vulkan 1.3 driver (lavapipe 22.3): the feature's device is refused
      // before any Vulkan call. The comparison runs on a 1.4 driver (the GPU machine's run).
      refused(() => setup({ dynamicRenderingLocalRead: true }), InvalidArgumentError, /dynamicRenderingLocalRead needs a Vulkan 1.4 device/);
      process.stderr.write('VK-PC-4: a Vulkan 1.3 driver: the dynamicRenderingLocalRead device refused; the pixel comparison needs a 1.4 driver\n');
      return;
    }
    const { pd, dev, warnings } = setup({ dynamicRenderingLocalRead: true });
    const target = image(pd, dev, W, 0x10 | 0x1);
    const view = dev.createImageView(target);
    const out = hostBuffer(pd, dev, W * W * 4, 0x2);
    const bytes = new Uint8Array(out.memory!.map());
    const pool = dev.createCommandPool(0);
    const run = async (cb: CommandBuffer) => {
      bytes.fill(0);
      await submitted(dev, cb);
      return bytes.slice();
    };
    const toAttachment = { oldLayout: 'undefined', newLayout: 'color-attachment-optimal', srcStageMask: PS_TOP, dstStageMask: PS_COLOR, dstAccessMask: COLOR_WRITE } as const;
    const toSrc = { oldLayout: 'color-attachment-optimal', newLayout: 'transfer-src-optimal', srcStageMask: PS_COLOR, dstStageMask: PS_TRANSFER, srcAccessMask: COLOR_WRITE, dstAccessMask: TRANSFER_READ } as const;
    const perCall = pool.allocateCommandBuffer().begin(1).imageBarrier(target, toAttachment).beginRendering({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0.25, 0.5, 0.75, 1] }] });
    const expected = await run(perCall.setRenderingAttachmentLocations([0]).endRendering().imageBarrier(target, toSrc).copyImageToBuffer(target, 'transfer-src-optimal', out).end());
    // The clear colour in UNORM: 0.5 × 255 = 127.5 lands on 127 (NVIDIA) or 128; within one step.
    [0.25, 0.5, 0.75, 1].forEach((v, i) => expect(Math.abs(expected[i]! - v * 255), `channel ${i}: ${expected[i]}`).toBeLessThanOrEqual(1));
    // The same through the encoder's generated opcodes. Table slots: 0 target, 1 view, 2 out.
    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), [target, view, out]);
    const range = { aspectMask: 1, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1 };
    const barrier = (oldLayout: number, newLayout: number, srcAccessMask: number, dstAccessMask: number) => ({ srcAccessMask, dstAccessMask, oldLayout, newLayout, srcQueueFamilyIndex: 0xffff_ffff, dstQueueFamilyIndex: 0xffff_ffff, image: 0, subresourceRange: range });
    const attachment = { imageView: 1, imageLayout: 2, resolveMode: 0, resolveImageView: null, resolveImageLayout: 0, loadOp: 1, storeOp: 0, clearValue: { color: { float32: [0.25, 0.5, 0.75, 1] } } };
    const rendering = { flags: 0, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: W } }, layerCount: 1, viewMask: 0, colorAttachmentCount: 1, pColorAttachments: [attachment], pDepthAttachment: null, pStencilAttachment: null };
    encoder.begin(1).vkCmdPipelineBarrier(PS_TOP, PS_COLOR, 0, 0, null, 0, null, 1, [barrier(0, 2, 0, COLOR_WRITE)]).vkCmdBeginRendering(rendering);
    encoder.vkCmdSetRenderingAttachmentLocations({ colorAttachmentCount: 1, pColorAttachmentLocations: [0] }).vkCmdEndRendering();
    encoder.vkCmdPipelineBarrier(PS_COLOR, PS_TRANSFER, 0, 0, null, 0, null, 1, [barrier(2, TRANSFER_SRC, COLOR_WRITE, TRANSFER_READ)]);
    encoder.vkCmdCopyImageToBuffer(0, TRANSFER_SRC, 2, 1, [{ bufferOffset: 0, bufferRowLength: 0, bufferImageHeight: 0, imageSubresource: { aspectMask: 1, mipLevel: 0, baseArrayLayer: 0, layerCount: 1 }, imageOffset: { x: 0, y: 0, z: 0 }, imageExtent: { width: W, height: W, depth: 1 } }]);
    expect(encoder.end()).toBe(6);
    expect(Buffer.from(await run(encoder.commandBuffer)).equals(Buffer.from(expected))).toBe(true);
    expect(warnings()).toEqual([]);
  });
  it('(VK-PC-2) blitImage per call gives the bytes the encoder\'s vkCmdBlitImage gives (a half-size linear blit and a nearest one); validation silent', async () => {
    const { pd, dev, warnings } = setup();
    const staging = hostBuffer(pd, dev, W * W * 4, 0x1);
    const pattern = new Uint8Array(staging.memory!.map());
    for (let i = 0; i < pattern.length; i++) pattern[i] = (i * 37 + (i >> 7)) & 0xff;
    const out = hostBuffer(pd, dev, 2 * (W / 2) * (W / 2) * 4, 0x2);
    const bytes = new Uint8Array(out.memory!.map());
    const a = image(pd, dev, W, 0x1 | 0x2);
    const b = image(pd, dev, W / 2, 0x1 | 0x2);
    const c = image(pd, dev, W / 2, 0x1 | 0x2);
    const pool = dev.createCommandPool(0);
    const run = async (cb: CommandBuffer) => {
      bytes.fill(0);
      await submitted(dev, cb);
      return bytes.slice();
    };
    const half = { x: W / 2, y: W / 2, z: 1 };
    const toDst = { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: PS_TOP, dstStageMask: PS_TRANSFER, dstAccessMask: TRANSFER_WRITE } as const;
    const toSrc = { oldLayout: 'transfer-dst-optimal', newLayout: 'transfer-src-optimal', srcStageMask: PS_TRANSFER, dstStageMask: PS_TRANSFER, srcAccessMask: TRANSFER_WRITE, dstAccessMask: TRANSFER_READ } as const;
    const perCall = pool.allocateCommandBuffer().begin(1).imageBarrier(a, toDst).imageBarrier(b, toDst).imageBarrier(c, toDst).copyBufferToImage(staging, a, 'transfer-dst-optimal').imageBarrier(a, toSrc);
    perCall.blitImage(a, 'transfer-src-optimal', b, 'transfer-dst-optimal', [{ srcOffsets: [{ x: 0, y: 0 }, { x: W, y: W, z: 1 }], dstOffsets: [{ x: 0, y: 0 }, half] }], 'linear');
    perCall.blitImage(a, 'transfer-src-optimal', c, 'transfer-dst-optimal', [{ srcSubresource: { aspectMask: 1, layerCount: 1 }, srcOffsets: [{ x: W, y: 0 }, { x: 0, y: W, z: 1 }], dstOffsets: [{ x: 0, y: 0 }, half] }]);
    perCall.imageBarrier(b, toSrc).imageBarrier(c, toSrc).copyImageToBuffer(b, 'transfer-src-optimal', out).copyImageToBuffer(c, 'transfer-src-optimal', out, { bufferOffset: (W / 2) * (W / 2) * 4 }).end();
    const expected = await run(perCall);
    // Both blits wrote: b is a filtered half of the pattern (not a copy of its first texels), c a mirrored nearest one.
    expect(expected.subarray(0, (W / 2) * (W / 2) * 4).some((v) => v !== 0)).toBe(true);
    expect(Buffer.from(expected.subarray(0, 64)).equals(Buffer.from(pattern.subarray(0, 64)))).toBe(false);
    expect(expected.subarray((W / 2) * (W / 2) * 4).some((v) => v !== 0)).toBe(true);

    // Table slots: 0 staging, 1 out, 2 a, 3 b, 4 c.
    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), [staging, out, a, b, c]);
    const range = { aspectMask: 1, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1 };
    const layers = { aspectMask: 1, mipLevel: 0, baseArrayLayer: 0, layerCount: 1 };
    const barrier = (image: number, oldLayout: number, newLayout: number, srcAccessMask: number, dstAccessMask: number) => ({ srcAccessMask, dstAccessMask, oldLayout, newLayout, srcQueueFamilyIndex: 0xffff_ffff, dstQueueFamilyIndex: 0xffff_ffff, image, subresourceRange: range });
    const region = (width: number, bufferOffset = 0) => ({ bufferOffset, bufferRowLength: 0, bufferImageHeight: 0, imageSubresource: layers, imageOffset: { x: 0, y: 0, z: 0 }, imageExtent: { width, height: width, depth: 1 } });
    const e = encoder.begin(1).vkCmdPipelineBarrier(PS_TOP, PS_TRANSFER, 0, 0, null, 0, null, 3, [barrier(2, 0, TRANSFER_DST, 0, TRANSFER_WRITE), barrier(3, 0, TRANSFER_DST, 0, TRANSFER_WRITE), barrier(4, 0, TRANSFER_DST, 0, TRANSFER_WRITE)]);
    e.vkCmdCopyBufferToImage(0, 2, TRANSFER_DST, 1, [region(W)]).vkCmdPipelineBarrier(PS_TRANSFER, PS_TRANSFER, 0, 0, null, 0, null, 1, [barrier(2, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ)]);
    e.vkCmdBlitImage(2, TRANSFER_SRC, 3, TRANSFER_DST, 1, [{ srcSubresource: layers, srcOffsets: [{ x: 0, y: 0, z: 0 }, { x: W, y: W, z: 1 }], dstSubresource: layers, dstOffsets: [{ x: 0, y: 0, z: 0 }, half] }], 1);
    e.vkCmdBlitImage(2, TRANSFER_SRC, 4, TRANSFER_DST, 1, [{ srcSubresource: layers, srcOffsets: [{ x: W, y: 0, z: 0 }, { x: 0, y: W, z: 1 }], dstSubresource: layers, dstOffsets: [{ x: 0, y: 0, z: 0 }, half] }], 0);
    e.vkCmdPipelineBarrier(PS_TRANSFER, PS_TRANSFER, 0, 0, null, 0, null, 2, [barrier(3, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ), barrier(4, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ)]);
    e.vkCmdCopyImageToBuffer(3, TRANSFER_SRC, 1, 1, [region(W / 2)]).vkCmdCopyImageToBuffer(4, TRANSFER_SRC, 1, 1, [region(W / 2, (W / 2) * (W / 2) * 4)]);
    expect(e.end()).toBe(8);
    expect(Buffer.from(await run(encoder.commandBuffer)).equals(Buffer.from(expected))).toBe(true);
    expect(warnings()).toEqual([]);
  });

  it('(VK-PC-2) blitImage refuses bad input with typed errors before any Vulkan call: the encoder\'s checks (offsets past the level, layouts, usages, formats without linear filtering), wrong lengths, destroyed and other devices\' images, inside rendering', () => {
    const { pd, dev, warnings } = setup();
    const other = setup();
    const a = image(pd, dev, W, 0x1 | 0x2 | 0x10);
    const b = image(pd, dev, W / 2, 0x1 | 0x2);
    const noUsage = image(pd, dev, W / 2, 0x1);
    const theirs = image(other.pd, other.dev, W / 2, 0x1 | 0x2);
    const gone = image(pd, dev, W / 2, 0x1 | 0x2);
    gone.destroy();
    const uint = (format: Format) => {
      const i = dev.createImage({ format, extent: { width: W, height: W }, usage: 0x1 | 0x2 });
      i.bindMemory(dev.allocateMemory(i.memoryRequirements.size, pd.requireMemoryType(i.memoryRequirements.memoryTypeBits, 0)));
      return i;
    };
    const cb = dev.createCommandPool(0).allocateCommandBuffer().begin();
    const region = { srcOffsets: [{ x: 0, y: 0 }, { x: W, y: W, z: 1 }], dstOffsets: [{ x: 0, y: 0 }, { x: W / 2, y: W / 2, z: 1 }] } as const;
    const blit = (src: Image, dst: Image, regions: unknown = [region], filter = 'nearest', srcLayout = 'transfer-src-optimal', dstLayout = 'transfer-dst-optimal') => () => cb.blitImage(src, srcLayout as 'general', dst, dstLayout as 'general', regions as [], filter as 'linear');
    refused(blit(a, b, [{ ...region, dstOffsets: [{ x: 0, y: 0 }, { x: W, y: W, z: 1 }] }]), InvalidArgumentError, /blitImage: pRegions\[0\]\.dstOffsets\[1\] \(32, 32, 1\) must lie in \[0, 16\]/);
    refused(blit(a, b, []), InvalidArgumentError, /blitImage: regions must be a non-empty array/);
    refused(blit(a, b, [{ ...region, srcOffsets: [{ x: 0, y: 0 }] }]), InvalidArgumentError, /regions\[0\]\.srcOffsets must be an array of 2 offsets/);
    refused(blit(a, b, [{ ...region, srcOffsets: [{ x: 0.5, y: 0 }, { x: W, y: W, z: 1 }] }]), InvalidArgumentError, /regions\[0\]\.srcOffsets\[0\]\.x must be an int32/);
    refused(blit(a, b, [{ ...region, dstSubresource: { layerCount: 2 } }]), InvalidArgumentError, /blitImage: pRegions\[0\]\.dstSubresource's layers \[0, 2\) must lie inside the image's 1/);
    refused(blit(a, b, [region], 'cubic'), InvalidArgumentError, /blitImage: filter must be 'nearest' or 'linear', got/);
    refused(blit(a, b, [region], 'nearest', 'transfer-dst-optimal'), InvalidArgumentError, /blitImage: srcImageLayout must be VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL \(6\) or VK_IMAGE_LAYOUT_GENERAL/);
    refused(blit(a, b, [region], 'nearest', 'sideways'), InvalidArgumentError, /blitImage: srcLayout must be an image layout name/);
    // Found by the property test: a name that is an object without a prototype (no toString) threw an uncoded TypeError.
    refused(blit(a, b, [region], 'nearest', Object.create(null) as string), InvalidArgumentError, /blitImage: srcLayout must be an image layout name/);
    refused(blit(a, b, [region], Object.create(null) as string), InvalidArgumentError, /blitImage: filter must be 'nearest' or 'linear'/);
    refused(blit(a, noUsage), InvalidArgumentError, /blitImage: dstImage has no TRANSFER_DST \(0x2\) usage/);
    // VK_FORMAT_R8G8B8A8_UINT (41): blits, no linear filtering.
    refused(blit(uint(Format.R8G8B8A8_UINT), uint(Format.R8G8B8A8_UINT), [{ ...region, dstOffsets: region.srcOffsets }], 'linear'), InvalidArgumentError, /blitImage: VK_FILTER_LINEAR needs VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT, which srcImage's format 41 lacks/);
    refused(blit(a, theirs), InvalidArgumentError, /blitImage: the dst image belongs to another device/);
    refused(blit(a, gone), VulkanError, /destroyed/);
    refused(blit(a, {} as Image), InvalidArgumentError, /blitImage: dst must be an Image/);
    const view = dev.createImageView(a);
    cb.imageBarrier(a, { oldLayout: 'undefined', newLayout: 'color-attachment-optimal', srcStageMask: PS_TOP, dstStageMask: PS_COLOR, dstAccessMask: COLOR_WRITE });
    cb.beginRendering({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] });
    refused(blit(a, b), InvalidStateError, /blitImage: inside dynamic rendering/);
    cb.endRendering().end();
    expect(warnings()).toEqual([]);
  });

  it('(VK-PC-3) queue.submit2 runs its command buffers in order, waits and signals its semaphores and fence as queue.submit does: the same bytes; validation silent', async () => {
    const { pd, dev, warnings } = setup();
    const bytes = 256;
    const src = hostBuffer(pd, dev, bytes, 0x1);
    const mid = hostBuffer(pd, dev, bytes, 0x1 | 0x2);
    const dst = hostBuffer(pd, dev, bytes, 0x2);
    const pattern = new Uint8Array(src.memory!.map());
    for (let i = 0; i < bytes; i++) pattern[i] = (i * 13 + 7) & 0xff;
    const middle = new Uint8Array(mid.memory!.map());
    const out = new Uint8Array(dst.memory!.map());
    const pool = dev.createCommandPool(0);
    const first = pool.allocateCommandBuffer().begin().copyBuffer(src, mid, bytes).end();
    const second = pool.allocateCommandBuffer().begin().pipelineBarrier(PS_TRANSFER, PS_TRANSFER, TRANSFER_WRITE, TRANSFER_READ).copyBuffer(mid, dst, bytes / 2, 0, bytes / 2).copyBuffer(mid, dst, bytes / 2, bytes / 2, 0).end();
    const queue = dev.queue(0);
    const fence = dev.createFence();
    const clear = () => {
      middle.fill(0);
      out.fill(0);
      fence.reset();
    };
    // queue.submit: two submissions, a semaphore between them.
    clear();
    const between = dev.createSemaphore();
    queue.submit(first, undefined, { signal: between });
    queue.submit(second, fence, { wait: between, waitStage: PS_TRANSFER });
    expect(await fence.wait()).toBe(true);
    const expected = out.slice();
    expect([...expected.subarray(0, 4)]).toEqual([...pattern.subarray(bytes / 2, bytes / 2 + 4)]); // the halves swapped
    // submit2: the same two submissions with VkSemaphoreSubmitInfo stage masks (COPY), then both in one batch.
    clear();
    queue.submit2([first], undefined, { signal: [{ semaphore: between, stageMask: 0x1_0000_0000n }] });
    queue.submit2([second], fence, { wait: [{ semaphore: between, stageMask: 0x1_0000_0000n }] });
    expect(await fence.wait()).toBe(true);
    expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
    clear();
    queue.submit2([first, second], fence);
    expect(await fence.wait()).toBe(true);
    expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
    // The fence says the batch completed: the command buffers may be recorded again.
    expect(() => first.begin().end()).not.toThrow();
    expect(warnings()).toEqual([]);
  });

  it('(VK-PC-3) queue.submit2 refuses bad input with typed errors before any Vulkan call: a buffer not ended, twice without SIMULTANEOUS_USE, of another device, destroyed fence, a wait with no signal pending, a bad stage mask, a device without synchronization2', async () => {
    const { pd, dev, warnings } = setup();
    const other = setup();
    const pool = dev.createCommandPool(0);
    const b = hostBuffer(pd, dev, 64, 0x1 | 0x2);
    const ended = pool.allocateCommandBuffer().begin().copyBuffer(b, b, 16, 0, 32).end();
    const recording = pool.allocateCommandBuffer().begin();
    const theirs = other.dev.createCommandPool(0).allocateCommandBuffer().begin().end();
    const fence = dev.createFence();
    const gone = dev.createFence();
    gone.destroy();
    const idle = dev.createSemaphore();
    const queue = dev.queue(0);
    refused(() => queue.submit2(ended as never), InvalidArgumentError, /submit2: commandBuffers must be an array of CommandBuffer/);
    refused(() => queue.submit2([recording]), InvalidStateError, /the command buffer is still recording/);
    refused(() => queue.submit2([ended, ended]), InvalidStateError, /submit2: commandBuffers\[1\] is listed before it and was not recorded with SIMULTANEOUS_USE/);
    refused(() => queue.submit2([theirs]), InvalidArgumentError, /commandBuffers\[0\] \(a CommandBuffer\) belongs to another device/);
    refused(() => queue.submit2([ended], gone), VulkanError, /fence \(a Fence\) was destroyed/);
    refused(() => queue.submit2([ended], undefined, { wait: [{ semaphore: idle }] }), InvalidStateError, /semaphores\.wait has no signal pending/);
    refused(() => queue.submit2([ended], undefined, { signal: [{ semaphore: idle, stageMask: 0x4000n }] }), InvalidArgumentError, /submit2: semaphores\.signal\[0\]\.stageMask must name Vulkan 1.3 pipeline stages \(VkPipelineStageFlagBits2\) other than HOST/);
    refused(() => queue.submit2([ended], undefined, { signal: [{ semaphore: idle, stageMask: 1n << 60n }] }), InvalidArgumentError, /stageMask must name Vulkan 1.3 pipeline stages/);
    refused(() => queue.submit2([ended], undefined, { signal: [{ semaphore: idle }, { semaphore: idle }] }), InvalidArgumentError, /semaphores\.signal\[1\] names a semaphore listed before it/);
    refused(() => queue.submit2([ended], undefined, { signal: [{ semaphore: other.dev.createSemaphore() }] }), InvalidArgumentError, /semaphores\.signal\[0\]\.semaphore \(a Semaphore\) belongs to another device/);
    const without = setup({ synchronization2: false });
    const theirsEnded = without.dev.createCommandPool(0).allocateCommandBuffer().begin().end();
    refused(() => without.dev.queue(0).submit2([theirsEnded]), InvalidStateError, /submit2: needs the synchronization2 feature, and the device was created without it/);
    // Nothing was submitted: the fence is unsignaled and the buffer submits normally.
    expect(fence.signaled).toBe(false);
    queue.submit2([ended], fence);
    expect(await fence.wait()).toBe(true);
    expect(warnings()).toEqual([]);
  });
});
