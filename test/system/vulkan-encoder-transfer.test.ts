// The command encoder's walked transfer, clear, barrier and render pass opcodes on the real driver
// (Mesa lavapipe, or the one KHRONOS_LOADER_VK_DRIVER_JSON names) with VK_LAYER_KHRONOS_validation
// where it is installed: a frame of copies, blits, clears, barriers and a render pass recorded
// through the encoder gives the bytes the same commands recorded one call at a time give, and the
// state checks of end() refuse what would be undefined behaviour with typed errors before any
// Vulkan call.
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, Format, VK_API_VERSION_1_3, VK_API_VERSION_1_4, vulkanCommands, type CommandBuffer, type Device, type EncodableObject, type Image, type Instance, type PhysicalDevice, type VulkanBuffer } from '../../lib/vulkan/index.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver();
const WARNING = 0x100;
const HOST = 0x2 | 0x4;
const W = 32;
const IGNORED = 0xffff_ffff;
// VkImageLayout
const UNDEFINED = 0;
const TRANSFER_SRC = 6;
const TRANSFER_DST = 7;
const COLOR_ATTACHMENT = 2;
// VkPipelineStageFlags / VkAccessFlags
const TOP = 0x1;
const TRANSFER = 0x1000;
const COLOR_OUTPUT = 0x400;
const TRANSFER_WRITE = 0x1000;
const TRANSFER_READ = 0x800;
const COLOR_WRITE = 0x100;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function setup(apiVersion = VK_API_VERSION_1_3): { instance: Instance; pd: PhysicalDevice; dev: Device } {
  const instance = realDriverLoader().createInstance({
    applicationName: 'kl-encoder-transfer-test',
    apiVersion,
    enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
  });
  open.push(instance);
  instance.startDebugMessenger();
  const pd = instance.enumeratePhysicalDevices()[0]!;
  return { instance, pd, dev: pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } }) };
}

function objects(pd: PhysicalDevice, dev: Device) {
  const host = (usage: number, bytes: number): VulkanBuffer => {
    const b = dev.createBuffer({ size: bytes, usage });
    b.bindMemory(dev.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
    return b;
  };
  const image = (width: number, usage: number): Image => {
    const i = dev.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width, height: width }, usage });
    i.bindMemory(dev.allocateMemory(i.memoryRequirements.size, pd.requireMemoryType(i.memoryRequirements.memoryTypeBits, 0)));
    return i;
  };
  const staging = host(0x1 | 0x2, W * W * 4);
  const pattern = new Uint8Array(staging.memory!.map());
  for (let i = 0; i < pattern.length; i++) pattern[i] = (i * 37 + (i >> 7)) & 0xff;
  const out = host(0x2, 3 * W * W * 4 + 256); // A, B, C read back, then 256 bytes of buffer copies
  const a = image(W, 0x1 | 0x2 | 0x10);
  const b = image(W / 2, 0x1 | 0x2);
  const c = image(W, 0x1 | 0x2);
  const small = host(0x1 | 0x2, 256);
  const view = dev.createImageView(a);
  const pass = dev.createRenderPass({
    attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'load', storeOp: 'store', initialLayout: 'color-attachment-optimal', finalLayout: 'transfer-src-optimal' }],
    subpasses: [{ colorAttachments: [{ attachment: 0 }] }],
    dependencies: [{ srcSubpass: 'external', dstSubpass: 0, srcStageMask: COLOR_OUTPUT, dstStageMask: COLOR_OUTPUT, srcAccessMask: COLOR_WRITE, dstAccessMask: COLOR_WRITE }, { srcSubpass: 0, dstSubpass: 'external', srcStageMask: COLOR_OUTPUT, dstStageMask: TRANSFER, srcAccessMask: COLOR_WRITE, dstAccessMask: TRANSFER_READ }],
  });
  const framebuffer = dev.createFramebuffer({ renderPass: pass, attachments: [view], width: W, height: W });
  return { staging, pattern, out, a, b, c, small, view, pass, framebuffer, outBytes: new Uint8Array(out.memory!.map()), smallBytes: new Uint8Array(small.memory!.map()) };
}

type Objects = ReturnType<typeof objects>;

const colour = { aspectMask: 1, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1 };
const layers = { aspectMask: 1, mipLevel: 0, baseArrayLayer: 0, layerCount: 1 };
const offset0 = { x: 0, y: 0, z: 0 };
const barrier = <H>(image: H, oldLayout: number, newLayout: number, srcAccessMask: number, dstAccessMask: number) => ({ srcAccessMask, dstAccessMask, oldLayout, newLayout, srcQueueFamilyIndex: IGNORED, dstQueueFamilyIndex: IGNORED, image, subresourceRange: colour });
const whole = (width: number, bufferOffset = 0) => ({ bufferOffset, bufferRowLength: 0, bufferImageHeight: 0, imageSubresource: layers, imageOffset: offset0, imageExtent: { width, height: width, depth: 1 } });
const blit = { srcSubresource: layers, srcOffsets: [offset0, { x: W, y: W, z: 1 }], dstSubresource: layers, dstOffsets: [offset0, { x: W / 2, y: W / 2, z: 1 }] };
const copy = { srcSubresource: layers, srcOffset: { x: 8, y: 8, z: 0 }, dstSubresource: layers, dstOffset: { x: 16, y: 16, z: 0 }, extent: { width: 16, height: 16, depth: 1 } };
const green = { aspectMask: 1, colorAttachment: 0, clearValue: { color: { float32: [0, 1, 0, 1] } } };
const rect = { rect: { offset: { x: 4, y: 4 }, extent: { width: 8, height: 8 } }, baseArrayLayer: 0, layerCount: 1 };
const UPDATE = Uint8Array.from({ length: 64 }, (_, i) => 255 - i);

/**
 * The frame, once per call through the generated bindings (each command a native call, on objects
 * those bindings create: they take no typed-API handle) and once through the encoder on the typed
 * objects: A gets the staging pattern, C a clear colour, B the half-size blit of A, C a copy of A's
 * middle, A a green rectangle cleared inside a render pass; all three read back, and a buffer
 * updated and copied with vkCmdCopyBuffer2. Returns the read-back bytes.
 */
async function perCall(pd: PhysicalDevice, dev: Device, pattern: Uint8Array): Promise<Uint8Array> {
  // Raw handles where the generated signatures name branded handle types.
  const vk = vulkanCommands(dev) as unknown as Record<string, (...args: unknown[]) => Record<string, unknown>>;
  const d = vk.deviceHandle as unknown as bigint;
  const memoryProps = pd.memoryProperties;
  const memory = (req: { size: bigint; memoryTypeBits: number }, flags: number): bigint => {
    const index = memoryProps.memoryTypes.findIndex((t, i) => (req.memoryTypeBits & (1 << i)) !== 0 && (t.propertyFlags & flags) === flags);
    return vk.vkAllocateMemory!(d, { allocationSize: req.size, memoryTypeIndex: index }).pMemory as bigint;
  };
  const buffer = (size: number, usage: number): { b: bigint; m: bigint } => {
    const b = vk.vkCreateBuffer!(d, { size, usage, sharingMode: 0 }).pBuffer as bigint;
    const m = memory(vk.vkGetBufferMemoryRequirements!(d, b).pMemoryRequirements as { size: bigint; memoryTypeBits: number }, HOST);
    vk.vkBindBufferMemory!(d, b, m, 0);
    vk.vkMapMemory!(d, m, 0, 0xffff_ffff_ffff_ffffn, 0);
    return { b, m };
  };
  const image = (width: number, usage: number): bigint => {
    const i = vk.vkCreateImage!(d, { imageType: 1, format: Format.R8G8B8A8_UNORM, extent: { width, height: width, depth: 1 }, mipLevels: 1, arrayLayers: 1, samples: 1, tiling: 0, usage, sharingMode: 0, initialLayout: 0 }).pImage as bigint;
    vk.vkBindImageMemory!(d, i, memory(vk.vkGetImageMemoryRequirements!(d, i).pMemoryRequirements as { size: bigint; memoryTypeBits: number }, 0), 0);
    return i;
  };
  const staging = buffer(W * W * 4, 0x1 | 0x2);
  vk.writeMapped!(staging.m, 0, pattern);
  const out = buffer(3 * W * W * 4 + 256, 0x2);
  vk.writeMapped!(out.m, 0, new Uint8Array(3 * W * W * 4 + 256));
  const small = buffer(256, 0x1 | 0x2);
  const [a, b, c] = [image(W, 0x1 | 0x2 | 0x10), image(W / 2, 0x1 | 0x2), image(W, 0x1 | 0x2)];
  const view = vk.vkCreateImageView!(d, { image: a, viewType: 1, format: Format.R8G8B8A8_UNORM, components: { r: 0, g: 0, b: 0, a: 0 }, subresourceRange: colour }).pView as bigint;
  const pass = vk.vkCreateRenderPass!(d, {
    pAttachments: [{ format: Format.R8G8B8A8_UNORM, samples: 1, loadOp: 0, storeOp: 0, stencilLoadOp: 2, stencilStoreOp: 1, initialLayout: COLOR_ATTACHMENT, finalLayout: TRANSFER_SRC }],
    pSubpasses: [{ pipelineBindPoint: 0, pColorAttachments: [{ attachment: 0, layout: COLOR_ATTACHMENT }] }],
    pDependencies: [
      { srcSubpass: IGNORED, dstSubpass: 0, srcStageMask: COLOR_OUTPUT, dstStageMask: COLOR_OUTPUT, srcAccessMask: COLOR_WRITE, dstAccessMask: COLOR_WRITE },
      { srcSubpass: 0, dstSubpass: IGNORED, srcStageMask: COLOR_OUTPUT, dstStageMask: TRANSFER, srcAccessMask: COLOR_WRITE, dstAccessMask: TRANSFER_READ },
    ],
  }).pRenderPass as bigint;
  const framebuffer = vk.vkCreateFramebuffer!(d, { renderPass: pass, pAttachments: [view], width: W, height: W, layers: 1 }).pFramebuffer as bigint;
  const pool = vk.vkCreateCommandPool!(d, { flags: 0, queueFamilyIndex: 0 }).pCommandPool as bigint;
  const h = (vk.vkAllocateCommandBuffers!(d, { commandPool: pool, level: 0, commandBufferCount: 1 }).pCommandBuffers as bigint[])[0]!;
  vk.vkBeginCommandBuffer!(h, { flags: 1 });
  vk.vkCmdPipelineBarrier!(h, TOP, TRANSFER, 0, [], [], [barrier(a, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE), barrier(b, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE), barrier(c, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE)]);
  vk.vkCmdCopyBufferToImage!(h, staging.b, a, TRANSFER_DST, [whole(W)]);
  vk.vkCmdClearColorImage!(h, c, TRANSFER_DST, { float32: [0.25, 0.5, 0.75, 1] }, [colour]);
  vk.vkCmdPipelineBarrier!(h, TRANSFER, TRANSFER, 0, [], [], [barrier(a, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ), barrier(c, TRANSFER_DST, TRANSFER_DST, TRANSFER_WRITE, TRANSFER_WRITE)]);
  vk.vkCmdBlitImage!(h, a, TRANSFER_SRC, b, TRANSFER_DST, [blit], 0);
  vk.vkCmdCopyImage!(h, a, TRANSFER_SRC, c, TRANSFER_DST, [copy]);
  vk.vkCmdPipelineBarrier!(h, TRANSFER, COLOR_OUTPUT | TRANSFER, 0, [], [], [barrier(a, TRANSFER_SRC, COLOR_ATTACHMENT, 0, COLOR_WRITE), barrier(b, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ), barrier(c, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ)]);
  vk.vkCmdBeginRenderPass!(h, { renderPass: pass, framebuffer, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: W } }, pClearValues: [] }, 0);
  vk.vkCmdClearAttachments!(h, [green], [rect]);
  vk.vkCmdEndRenderPass!(h);
  vk.vkCmdCopyImageToBuffer!(h, a, TRANSFER_SRC, out.b, [whole(W)]);
  vk.vkCmdCopyImageToBuffer!(h, b, TRANSFER_SRC, out.b, [whole(W / 2, W * W * 4)]);
  vk.vkCmdCopyImageToBuffer!(h, c, TRANSFER_SRC, out.b, [whole(W, 2 * W * W * 4)]);
  vk.vkCmdUpdateBuffer!(h, small.b, 0, UPDATE);
  vk.vkCmdPipelineBarrier!(h, TRANSFER, TRANSFER, 0, [{ srcAccessMask: TRANSFER_WRITE, dstAccessMask: TRANSFER_READ }], [], []);
  vk.vkCmdCopyBuffer2!(h, { srcBuffer: small.b, dstBuffer: out.b, pRegions: [{ srcOffset: 0, dstOffset: 3 * W * W * 4, size: 64 }] });
  vk.vkEndCommandBuffer!(h);
  const queue = vk.vkGetDeviceQueue!(d, 0, 0).pQueue as bigint;
  const fence = vk.vkCreateFence!(d, {}).pFence as bigint;
  vk.vkQueueSubmit!(queue, [{ pCommandBuffers: [h] }], fence);
  expect(vk.vkWaitForFences!(d, [fence], true, 10_000_000_000n).result).toBe(0);
  return vk.readMapped!(out.m, 0, 3 * W * W * 4 + 256) as unknown as Uint8Array;
}

function table(o: Objects): EncodableObject[] {
  return [o.staging, o.out, o.a, o.b, o.c, o.small, o.view, o.pass, o.framebuffer];
}
const [STAGING, OUT, A, B, C, SMALL, , PASS, FB] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

function encoded(e: CommandEncoder): CommandEncoder {
  e.begin(1);
  e.vkCmdPipelineBarrier(TOP, TRANSFER, 0, 0, null, 0, null, 3, [barrier(A, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE), barrier(B, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE), barrier(C, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE)]);
  e.vkCmdCopyBufferToImage(STAGING, A, TRANSFER_DST, 1, [whole(W)]);
  e.vkCmdClearColorImage(C, TRANSFER_DST, { float32: [0.25, 0.5, 0.75, 1] }, 1, [colour]);
  e.vkCmdPipelineBarrier(TRANSFER, TRANSFER, 0, 0, null, 0, null, 2, [barrier(A, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ), barrier(C, TRANSFER_DST, TRANSFER_DST, TRANSFER_WRITE, TRANSFER_WRITE)]);
  e.vkCmdBlitImage(A, TRANSFER_SRC, B, TRANSFER_DST, 1, [blit], 0);
  e.vkCmdCopyImage(A, TRANSFER_SRC, C, TRANSFER_DST, 1, [copy]);
  e.vkCmdPipelineBarrier(TRANSFER, COLOR_OUTPUT | TRANSFER, 0, 0, null, 0, null, 3, [barrier(A, TRANSFER_SRC, COLOR_ATTACHMENT, 0, COLOR_WRITE), barrier(B, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ), barrier(C, TRANSFER_DST, TRANSFER_SRC, TRANSFER_WRITE, TRANSFER_READ)]);
  e.vkCmdBeginRenderPass({ renderPass: PASS, framebuffer: FB, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: W } }, clearValueCount: 0, pClearValues: [] }, 0);
  e.vkCmdClearAttachments(1, [green], 1, [rect]);
  e.vkCmdEndRenderPass();
  e.vkCmdCopyImageToBuffer(A, TRANSFER_SRC, OUT, 1, [whole(W)]);
  e.vkCmdCopyImageToBuffer(B, TRANSFER_SRC, OUT, 1, [whole(W / 2, W * W * 4)]);
  e.vkCmdCopyImageToBuffer(C, TRANSFER_SRC, OUT, 1, [whole(W, 2 * W * W * 4)]);
  e.vkCmdUpdateBuffer(SMALL, 0, 64, UPDATE);
  e.vkCmdPipelineBarrier(TRANSFER, TRANSFER, 0, 1, [{ srcAccessMask: TRANSFER_WRITE, dstAccessMask: TRANSFER_READ }], 0, null, 0, null);
  e.vkCmdCopyBuffer2({ srcBuffer: SMALL, dstBuffer: OUT, regionCount: 1, pRegions: [{ srcOffset: 0, dstOffset: 3 * W * W * 4, size: 64 }] });
  return e;
}

describe.skipIf(skip !== null)('the encoder\'s walked transfer, clear, barrier and render pass opcodes on the real driver', () => {
  it('(VK-CE-8) copies, blits, clears, barriers, a render pass and vkCmdClearAttachments through the encoder give the bytes per-call recording gives; validation silent', async () => {
    const { instance, pd, dev } = setup();
    const o = objects(pd, dev);
    const pool = dev.createCommandPool(0);
    const fence = dev.createFence();
    const run = async (cb: CommandBuffer): Promise<Uint8Array> => {
      o.outBytes.fill(0);
      fence.reset();
      dev.queue(0).submit(cb, fence);
      expect(await fence.wait()).toBe(true);
      return o.outBytes.slice();
    };
    const pattern = o.pattern.slice();
    const expected = await perCall(pd, dev, pattern);
    // The frame did what it says (so an equal result below is the encoder's doing, not two empty buffers).
    const px = (image: number, x: number, y: number, width = W) => [...expected.subarray(image * W * W * 4 + (y * width + x) * 4, image * W * W * 4 + (y * width + x) * 4 + 4)];
    expect(px(0, 0, 0)).toEqual([...pattern.subarray(0, 4)]); // A: the staging pattern
    expect(px(0, 5, 5)).toEqual([0, 255, 0, 255]); // the cleared rectangle
    expect(px(2, 0, 0)).toEqual([64, 128, 191, 255]); // C: its clear colour
    expect(px(2, 16, 16)).toEqual([...pattern.subarray((8 * W + 8) * 4, (8 * W + 8) * 4 + 4)]); // C: A's middle copied
    expect(expected.subarray(W * W * 4, W * W * 4 + (W / 2) * (W / 2) * 4).some((v) => v !== 0)).toBe(true); // B: the blit
    expect([...expected.subarray(3 * W * W * 4, 3 * W * W * 4 + 64)]).toEqual([...UPDATE]);

    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), table(o));
    expect(encoded(encoder).end()).toBe(16);
    const got = await run(encoder.commandBuffer);
    expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
    const warnings = instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => `${m.messageIdName}: ${m.message}`);
    expect(warnings).toEqual([]);
  });

  it('(VK-CE-8) end() refuses, with typed errors and before any Vulkan call, a copy, blit or clear that would be undefined: regions past an image, a wrong layout, a missing usage, an update past the buffer, a barrier inside a render pass, a clear of an attachment the render pass lacks, a render pass with a framebuffer of another pass, vkCmdPipelineBarrier2 without synchronization2', async () => {
    const { pd, dev } = setup();
    const o = objects(pd, dev);
    const pool = dev.createCommandPool(0);
    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), table(o));
    encoder.begin().vkCmdFillBuffer(OUT, 0, 16, 7).end(); // the recording a refusal leaves in place
    const refused = (record: (e: CommandEncoder) => unknown, error: Function, message: RegExp): void => {
      record(encoder.begin());
      let thrown: unknown;
      try {
        encoder.end();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(error);
      expect((thrown as Error).message).toMatch(message);
    };
    const toDst = (e: CommandEncoder) => e.vkCmdPipelineBarrier(TOP, TRANSFER, 0, 0, null, 0, null, 1, [barrier(A, UNDEFINED, TRANSFER_DST, 0, TRANSFER_WRITE)]);
    refused((e) => e.vkCmdCopyBufferToImage(STAGING, B, TRANSFER_DST, 1, [whole(W)]), InvalidArgumentError, /vkCmdCopyBufferToImage: the region \[0, 0, 0\] 32x32x1 must lie inside mip level 0 \(16x16x1\)/);
    refused((e) => e.vkCmdCopyBufferToImage(STAGING, A, TRANSFER_SRC, 1, [whole(W)]), InvalidArgumentError, /dstImageLayout must be VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL \(7\) or VK_IMAGE_LAYOUT_GENERAL/);
    refused((e) => e.vkCmdCopyImageToBuffer(A, TRANSFER_SRC, SMALL, 1, [whole(W)]), InvalidArgumentError, /takes 4096 bytes of the buffer from offset 0, past its size 256/);
    refused((e) => e.vkCmdCopyImage(A, TRANSFER_SRC, B, TRANSFER_DST, 1, [copy]), InvalidArgumentError, /vkCmdCopyImage: pRegions\[0\] \(destination\): the box \[16, 16, 0\] 16x16x1 must lie inside mip level 0 \(16x16x1\)/);
    refused((e) => e.vkCmdBlitImage(A, TRANSFER_SRC, B, TRANSFER_DST, 1, [{ ...blit, dstOffsets: [offset0, { x: W, y: W, z: 1 }] }], 0), InvalidArgumentError, /vkCmdBlitImage: pRegions\[0\]\.dstOffsets\[1\] \(32, 32, 1\) must lie in \[0, 16\]/);
    refused((e) => e.vkCmdResolveImage(A, TRANSFER_SRC, C, TRANSFER_DST, 1, [copy]), InvalidArgumentError, /vkCmdResolveImage: srcImage must be multisampled/);
    refused((e) => e.vkCmdClearColorImage(C, TRANSFER_DST, { float32: [0, 0, 0, 1] }, 1, [{ ...colour, layerCount: 2 }]), InvalidArgumentError, /vkCmdClearColorImage: pRanges\[0\]'s layers from 0 \(2\) must lie inside the image's 1/);
    refused((e) => e.vkCmdClearColorImage(C, TRANSFER_DST, { float32: [0, 0, 0, 1] }, 1, [{ ...colour, aspectMask: 2 }]), InvalidArgumentError, /pRanges\[0\]\.aspectMask 0x2 must name aspects among 0x1/);
    refused((e) => e.vkCmdUpdateBuffer(SMALL, 224, 64, UPDATE), InvalidArgumentError, /vkCmdUpdateBuffer: dstOffset 224 and dataSize 64 must be multiples of 4, dataSize in \(0, 65536\], inside the buffer's 256/);
    refused((e) => e.vkCmdCopyBuffer2({ srcBuffer: OUT, dstBuffer: SMALL, regionCount: 1, pRegions: [{ srcOffset: 0, dstOffset: 0, size: 64 }] }), InvalidArgumentError, /copyBuffer: src needs usage 0x1/);
    refused((e) => e.vkCmdPipelineBarrier(TOP, TRANSFER, 0, 0, null, 1, [{ srcAccessMask: 0, dstAccessMask: TRANSFER_WRITE, srcQueueFamilyIndex: IGNORED, dstQueueFamilyIndex: IGNORED, buffer: SMALL, offset: 128, size: 256 }], 0, null), InvalidArgumentError, /pBufferMemoryBarriers\[0\]: offset 128 and size 256 must lie inside the buffer's 256/);
    refused((e) => e.vkCmdPipelineBarrier(TOP, TRANSFER, 0, 0, null, 0, null, 1, [barrier(A, UNDEFINED, UNDEFINED, 0, 0)]), InvalidArgumentError, /pImageMemoryBarriers\[0\]\.newLayout must be a layout other than VK_IMAGE_LAYOUT_UNDEFINED/);
    refused((e) => e.vkCmdPipelineBarrier(TOP, TRANSFER, 0, 0, null, 0, null, 1, [{ ...barrier(A, UNDEFINED, TRANSFER_DST, 0, 0), srcQueueFamilyIndex: 0, dstQueueFamilyIndex: 1 }]), InvalidArgumentError, /no queue family ownership transfer/);
    const begin = { renderPass: PASS, framebuffer: FB, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: W } }, clearValueCount: 0, pClearValues: [] };
    refused((e) => toDst(e).vkCmdBeginRenderPass(begin, 0).vkCmdPipelineBarrier(TOP, TRANSFER, 0, 0, null, 0, null, 0, null).vkCmdEndRenderPass(), InvalidStateError, /vkCmdPipelineBarrier: inside a render pass/);
    refused((e) => e.vkCmdBeginRenderPass(begin, 0).vkCmdClearAttachments(1, [{ ...green, colorAttachment: 1 }], 1, [rect]).vkCmdEndRenderPass(), InvalidArgumentError, /pAttachments\[0\]\.colorAttachment 1 is not a colour attachment of the rendering \(it has 1\)/);
    refused((e) => e.vkCmdBeginRenderPass(begin, 0).vkCmdClearAttachments(1, [{ ...green, aspectMask: 2 }], 1, [rect]).vkCmdEndRenderPass(), InvalidArgumentError, /clears depth and the rendering has no depth attachment/);
    refused((e) => e.vkCmdBeginRenderPass(begin, 0).vkCmdClearAttachments(1, [green], 1, [{ ...rect, rect: { offset: { x: 30, y: 0 }, extent: { width: 8, height: 8 } } }]).vkCmdEndRenderPass(), InvalidArgumentError, /pRects\[0\] \[30, 0, 8x8\] must lie inside the render area \[0, 0, 32x32\]/);
    refused((e) => e.vkCmdBeginRenderPass({ ...begin, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W + 1, height: W } } }, 0).vkCmdEndRenderPass(), InvalidArgumentError, /the render area \[0, 0, 33x32\] is not inside the framebuffer's 32x32/);
    refused((e) => e.vkCmdBeginRenderPass(begin, 1).vkCmdEndRenderPass(), InvalidArgumentError, /contents must be VK_SUBPASS_CONTENTS_INLINE/);
    refused((e) => e.vkCmdPipelineBarrier2({ dependencyFlags: 0, memoryBarrierCount: 0, pMemoryBarriers: null, bufferMemoryBarrierCount: 0, pBufferMemoryBarriers: null, imageMemoryBarrierCount: 0, pImageMemoryBarriers: null }), InvalidStateError, /synchronization2/);
    // A copy inside the render pass: the registry's scope, refused natively (CommandStreamError).
    record: {
      toDst(encoder.begin()).vkCmdBeginRenderPass(begin, 0).vkCmdCopyBuffer(SMALL, OUT, 1, [{ srcOffset: 0, dstOffset: 0, size: 4 }]).vkCmdEndRenderPass();
      expect(() => encoder.end()).toThrow(expect.objectContaining({ reason: 'render-pass-scope', commandIndex: 2 }));
    }
    // The command buffer kept its fill.
    const fence = dev.createFence();
    o.outBytes.fill(0);
    dev.queue(0).submit(encoder.commandBuffer, fence);
    expect(await fence.wait()).toBe(true);
    expect([...new Uint32Array(o.outBytes.buffer, 0, 5)]).toEqual([7, 7, 7, 7, 0]);
  });

  it('(VK-CE-9) vkCmdBindIndexBuffer2\'s size is checked: offset + size past the buffer or a size not a multiple of the index size is refused at end(), VK_WHOLE_SIZE and a range inside the buffer are recorded', () => {
    const { pd, dev } = setup(VK_API_VERSION_1_4); // vkCmdBindIndexBuffer2 is Vulkan 1.4
    const ib = dev.createBuffer({ size: 64, usage: 0x40 });
    ib.bindMemory(dev.allocateMemory(ib.memoryRequirements.size, pd.requireMemoryType(ib.memoryRequirements.memoryTypeBits, HOST)));
    const encoder = new CommandEncoder(dev.createCommandPool(0).allocateCommandBuffer(), [ib]);
    const ends = (record: (e: CommandEncoder) => unknown): unknown => {
      record(encoder.begin());
      try {
        return encoder.end();
      } catch (e) {
        return e;
      }
    };
    expect(ends((e) => e.vkCmdBindIndexBuffer2(0, 16, 64, 1))).toMatchObject({ code: 'KL_INVALID_ARGUMENT', message: expect.stringMatching(/vkCmdBindIndexBuffer2: size 64 must be a multiple of the index size 4 with offset 16 \+ size inside the buffer's 64/) });
    expect(ends((e) => e.vkCmdBindIndexBuffer2(0, 0, 6, 1))).toBeInstanceOf(InvalidArgumentError);
    // Accepted by end()'s checks: recorded where the driver has Vulkan 1.4, else refused only by the native availability check.
    const accepted = pd.properties.apiVersion.major === 1 && pd.properties.apiVersion.minor < 4 ? expect.objectContaining({ reason: 'unavailable' }) : 1;
    expect(ends((e) => e.vkCmdBindIndexBuffer2(0, 0, 6, 0))).toEqual(accepted); // 3 uint16 indices
    expect(ends((e) => e.vkCmdBindIndexBuffer2(0, 16, 48, 1))).toEqual(accepted);
    expect(ends((e) => e.vkCmdBindIndexBuffer2(0, 16, 0xffff_ffff_ffff_ffffn, 1))).toEqual(accepted);
  });

  it('(VK-CE-10) a table object of another logical device is refused with a typed error when the table is bound, before any Vulkan call', () => {
    const { pd, dev } = setup();
    const other = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const mine = dev.createBuffer({ size: 64, usage: 0x2 });
    const theirs = other.createBuffer({ size: 64, usage: 0x2 });
    const image = other.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: 4, height: 4 }, usage: 0x2 });
    const cb = dev.createCommandPool(0).allocateCommandBuffer();
    expect(() => new CommandEncoder(cb, [mine, theirs])).toThrow(InvalidArgumentError);
    expect(() => new CommandEncoder(cb, [mine, theirs])).toThrow(/objects\[1\] \(a VulkanBuffer\) belongs to another device than the command buffer's/);
    const encoder = new CommandEncoder(cb, [mine]);
    expect(() => encoder.bind([image])).toThrow(/objects\[0\] \(an Image\) belongs to another device/);
    // The table it had stays bound.
    expect(encoder.slot(mine)).toBe(0);
    other.destroy();
  });
});
