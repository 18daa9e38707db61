// The synchronization2 commands through the command encoder on a device created with that feature,
// and the query and blit checks that need the driver's answers (a queue family's
// timestampValidBits, a format's optimal-tiling features), on the real driver (Mesa lavapipe, or
// the one KHRONOS_LOADER_VK_DRIVER_JSON names) with VK_LAYER_KHRONOS_validation where it is installed.
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, Format, VK_API_VERSION_1_3, vulkanCommands, type CommandBuffer, type EncodableObject, type Instance, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { expectEndRefused } from '../helpers/encoder-end.js';

const skip = missingRealDriver();
const WARNING = 0x100;
const HOST = 0x2 | 0x4;
const IGNORED = 0xffff_ffff;
// VkPipelineStageFlags(2) and VkAccessFlags(2) the tests name.
const TOP = 0x1;
const TRANSFER = 0x1000;
const BOTTOM = 0x2000;
const STAGE_HOST = 0x4000;
const COPY2 = 0x1_0000_0000n;
const CLEAR2 = 0x8_0000_0000n;
const TRANSFER_READ = 0x800;
const TRANSFER_WRITE = 0x1000;
const HOST_READ = 0x2000;
// VkFormatFeatureFlagBits
const BLIT_DST = 0x800;
const FILTER_LINEAR = 0x1000;
const BYTES = 256;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function instanceAndDevice() {
  const instance = realDriverLoader().createInstance({ applicationName: 'kl-encoder-sync2-test', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [], enabledExtensionNames: ['VK_EXT_debug_utils'] });
  open.push(instance);
  instance.startDebugMessenger();
  return { instance, pd: instance.enumeratePhysicalDevices()[0]! };
}

function objects(pd: PhysicalDevice, synchronization2: boolean) {
  const dev = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { synchronization2 } });
  const host = (usage: number) => {
    const b = dev.createBuffer({ size: BYTES, usage });
    b.bindMemory(dev.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
    return b;
  };
  const a = host(0x1 | 0x2);
  const b = host(0x1 | 0x2);
  const timestamps = dev.createQueryPool({ queryType: 'timestamp', queryCount: 2 });
  const waited = dev.createEvent();
  const left = dev.createEvent();
  const pool = dev.createCommandPool(0);
  const fence = dev.createFence();
  const submit = async (cb: CommandBuffer) => {
    fence.reset();
    dev.queue(0).submit(cb, fence);
    expect(await fence.wait()).toBe(true);
  };
  // Table slots: 0 a, 1 b, 2 timestamps, 3 waited, 4 left.
  const table: EncodableObject[] = [a, b, timestamps, waited, left];
  return { dev, a, b, timestamps, waited, left, pool, submit, table };
}

const bufferBarrier = (buffer: number, srcStageMask: number | bigint, srcAccessMask: number, dstStageMask: number | bigint, dstAccessMask: number) => ({
  srcStageMask, srcAccessMask, dstStageMask, dstAccessMask, srcQueueFamilyIndex: IGNORED, dstQueueFamilyIndex: IGNORED, buffer, offset: 0, size: BYTES,
});
const dependency = (barriers: ReturnType<typeof bufferBarrier>[], dependencyFlags = 0) => ({ dependencyFlags, memoryBarrierCount: 0, pMemoryBarriers: null, bufferMemoryBarrierCount: barriers.length, pBufferMemoryBarriers: barriers, imageMemoryBarrierCount: 0, pImageMemoryBarriers: null });

describe.skipIf(skip !== null)('synchronization2 and the driver-answered checks through the encoder on the real driver', () => {
  it('(VK-CE-12) vkCmdPipelineBarrier2, vkCmdSetEvent2, vkCmdWaitEvents2, vkCmdResetEvent2 and vkCmdWriteTimestamp2 on a synchronization2 device give what their Vulkan 1.0 forms give; validation silent', async () => {
    const { instance, pd } = instanceAndDevice();
    const s = objects(pd, true);
    const copied = new Uint8Array(s.b.memory!.map());
    const run = async (sync2: boolean) => {
      copied.fill(0);
      s.left.reset();
      const e = new CommandEncoder(s.pool.allocateCommandBuffer(), s.table).begin(1);
      e.vkCmdResetQueryPool(2, 0, 2);
      if (sync2) e.vkCmdWriteTimestamp2(COPY2, 2, 0);
      else e.vkCmdWriteTimestamp(TRANSFER, 2, 0);
      e.vkCmdFillBuffer(0, 0, BYTES, 0x5a5a_0102);
      if (sync2) e.vkCmdPipelineBarrier2(dependency([bufferBarrier(0, CLEAR2, TRANSFER_WRITE, COPY2, TRANSFER_READ)]));
      else e.vkCmdPipelineBarrier(TRANSFER, TRANSFER, 0, 0, null, 1, [bufferBarrier(0, 0, TRANSFER_WRITE, 0, TRANSFER_READ)], 0, null);
      e.vkCmdCopyBuffer(0, 1, 1, [{ srcOffset: 16, dstOffset: 0, size: 128 }]);
      if (sync2) {
        const toHost = dependency([bufferBarrier(1, COPY2, TRANSFER_WRITE, BigInt(STAGE_HOST), HOST_READ)]);
        e.vkCmdSetEvent2(3, toHost).vkCmdWaitEvents2(1, [3], [toHost]).vkCmdResetEvent2(3, COPY2);
        e.vkCmdSetEvent2(4, dependency([])).vkCmdWriteTimestamp2(BigInt(BOTTOM), 2, 1);
      } else {
        e.vkCmdSetEvent(3, TRANSFER).vkCmdWaitEvents(1, [3], TRANSFER, STAGE_HOST, 0, null, 1, [bufferBarrier(1, 0, TRANSFER_WRITE, 0, HOST_READ)], 0, null).vkCmdResetEvent(3, TRANSFER);
        e.vkCmdSetEvent(4, BOTTOM).vkCmdWriteTimestamp(BOTTOM, 2, 1);
      }
      expect(e.end()).toBe(10);
      await s.submit(e.commandBuffer);
      const times = s.timestamps.getResults(0, 2, { wait: true })!;
      return { bytes: copied.slice(), times, waited: s.waited.signaled, left: s.left.signaled };
    };
    const before = await run(false);
    const after = await run(true);
    const expected = new Uint8Array(BYTES);
    new Uint32Array(expected.buffer, 0, 32).fill(0x5a5a_0102);
    expect(before.bytes).toEqual(expected);
    expect(after.bytes).toEqual(expected);
    expect([after.waited, after.left]).toEqual([before.waited, before.left]);
    expect([after.waited, after.left]).toEqual([false, true]);
    for (const t of [before.times, after.times]) {
      expect(t[0]).toBeGreaterThan(0n);
      expect(t[1]).toBeGreaterThanOrEqual(t[0]!);
    }
    expect(after.times[0]).toBeGreaterThanOrEqual(before.times[1]!); // written by the later submission
    const warnings = instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => `${m.messageIdName}: ${m.message}`);
    expect(warnings).toEqual([]);
  });

  it('(VK-CE-12) the synchronization2 commands are refused at end() on a device without the feature, and their bad input on one with it, before any Vulkan call', () => {
    const { pd } = instanceAndDevice();
    const refusals = (synchronization2: boolean) => {
      const s = objects(pd, synchronization2);
      const e = new CommandEncoder(s.pool.allocateCommandBuffer(), s.table);
      return (record: (e: CommandEncoder) => unknown, error: Function, message: RegExp): void => expectEndRefused(e, (r) => record(r.vkCmdResetQueryPool(2, 0, 2)), error, message);
    };
    const without = refusals(false);
    const ok = dependency([bufferBarrier(0, COPY2, TRANSFER_WRITE, COPY2, TRANSFER_READ)]);
    without((e) => e.vkCmdPipelineBarrier2(ok), InvalidStateError, /vkCmdPipelineBarrier2: needs the synchronization2 feature, and the device was created without it/);
    without((e) => e.vkCmdSetEvent2(3, ok), InvalidStateError, /vkCmdSetEvent2: needs the synchronization2 feature/);
    without((e) => e.vkCmdWaitEvents2(1, [3], [ok]), InvalidStateError, /vkCmdWaitEvents2: needs the synchronization2 feature/);
    without((e) => e.vkCmdResetEvent2(3, COPY2), InvalidStateError, /vkCmdResetEvent2: needs the synchronization2 feature/);
    without((e) => e.vkCmdWriteTimestamp2(COPY2, 2, 0), InvalidStateError, /vkCmdWriteTimestamp2: needs the synchronization2 feature/);

    const refused = refusals(true);
    refused((e) => e.vkCmdPipelineBarrier2(dependency([{ ...bufferBarrier(0, COPY2, TRANSFER_WRITE, COPY2, TRANSFER_READ), offset: 128, size: 256 }])), InvalidArgumentError, /vkCmdPipelineBarrier2: pDependencyInfo: pBufferMemoryBarriers\[0\]: offset 128 and size 256 must lie inside the buffer's 256/);
    refused((e) => e.vkCmdPipelineBarrier2(dependency([bufferBarrier(0, 1n << 50n, TRANSFER_WRITE, COPY2, TRANSFER_READ)])), InvalidArgumentError, /must name Vulkan 1.3 pipeline stages/);
    refused((e) => e.vkCmdPipelineBarrier2(dependency([{ ...bufferBarrier(0, COPY2, TRANSFER_WRITE, COPY2, TRANSFER_READ), srcQueueFamilyIndex: 0 }])), InvalidArgumentError, /srcQueueFamilyIndex and dstQueueFamilyIndex must be equal/);
    refused((e) => e.vkCmdSetEvent2(3, dependency([], 1)), InvalidArgumentError, /vkCmdSetEvent2: pDependencyInfo.dependencyFlags must be 0/);
    refused((e) => e.vkCmdSetEvent2(3, dependency([bufferBarrier(0, BigInt(STAGE_HOST), 0, COPY2, TRANSFER_READ)])), InvalidArgumentError, /vkCmdSetEvent2: pDependencyInfo.pBufferMemoryBarriers\[0\].srcStageMask must name Vulkan 1.3 pipeline stages other than HOST/);
    refused((e) => e.vkCmdWaitEvents2(1, [3], [dependency([{ ...bufferBarrier(0, COPY2, TRANSFER_WRITE, COPY2, TRANSFER_READ), size: 0 }])]), InvalidArgumentError, /vkCmdWaitEvents2: pDependencyInfos\[0\]: pBufferMemoryBarriers\[0\]: offset 0 and size 0 must lie inside/);
    refused((e) => e.vkCmdResetEvent2(3, BigInt(STAGE_HOST)), InvalidArgumentError, /vkCmdResetEvent2: stageMask must name Vulkan 1.3 pipeline stages other than HOST/);
    refused((e) => e.vkCmdWriteTimestamp2(COPY2 | CLEAR2, 2, 0), InvalidArgumentError, /vkCmdWriteTimestamp2: stage must be one VkPipelineStageFlagBits2/);
  });

  it('(VK-CE-13) a timestamp on a queue family whose timestampValidBits is 0 is refused per call and at end(); the family\'s bits are the driver\'s', () => {
    const { pd } = instanceAndDevice();
    const bits = pd.queueFamilies[0]!.timestampValidBits;
    // The driver's own answer, through the generated bindings.
    const vk = vulkanCommands(open[0]!);
    const handle = vk.vkEnumeratePhysicalDevices(vk.instanceHandle!).pPhysicalDevices[0]!;
    expect(bits).toBe(vk.vkGetPhysicalDeviceQueueFamilyProperties(handle).pQueueFamilyProperties[0]!.timestampValidBits);
    expect(bits).toBeGreaterThan(0);
    const real = objects(pd, true);
    const cb = real.pool.allocateCommandBuffer().begin();
    cb.resetQueryPool(real.timestamps).writeTimestamp(TOP, real.timestamps, 0).end();
    // A family that writes no timestamps, as a driver may report one (lavapipe's writes 64 bits).
    Object.defineProperty(pd.queueFamilies[0]!, 'timestampValidBits', { value: 0 });
    const s = objects(pd, true);
    const none = s.pool.allocateCommandBuffer().begin().resetQueryPool(s.timestamps);
    expect(() => none.writeTimestamp(TOP, s.timestamps, 0)).toThrow(InvalidStateError);
    expect(() => none.writeTimestamp(TOP, s.timestamps, 0)).toThrow(/writeTimestamp: the command buffer's queue family writes no timestamps \(its timestampValidBits is 0\)/);
    const e = new CommandEncoder(s.pool.allocateCommandBuffer(), s.table);
    expect(() => e.begin().vkCmdResetQueryPool(2, 0, 2).vkCmdWriteTimestamp(TOP, 2, 0).end()).toThrow(/vkCmdWriteTimestamp: the command buffer's queue family writes no timestamps/);
    expect(() => e.begin().vkCmdResetQueryPool(2, 0, 2).vkCmdWriteTimestamp2(COPY2, 2, 1).end()).toThrow(/vkCmdWriteTimestamp2: the command buffer's queue family writes no timestamps/);
    expect(e.begin().vkCmdResetQueryPool(2, 0, 2).end()).toBe(1);
  });

  it('(VK-CE-13) a query begun or written before a reset since its last use in the recording, or never reset since the pool was created, is refused per call and at end()', () => {
    const { pd } = instanceAndDevice();
    const s = objects(pd, true);
    const fresh = s.dev.createQueryPool({ queryType: 'timestamp', queryCount: 2 });
    const occlusion = s.dev.createQueryPool({ queryType: 'occlusion', queryCount: 1 });
    const cb = s.pool.allocateCommandBuffer().begin();
    expect(() => cb.writeTimestamp(TOP, fresh, 0)).toThrow(/writeTimestamp: query 0 of the pool was never reset since the pool was created/);
    expect(() => cb.beginQuery(occlusion, 0)).toThrow(/beginQuery: query 0 of the pool was never reset since the pool was created/);
    cb.resetQueryPool(fresh, 0, 1).writeTimestamp(TOP, fresh, 0);
    expect(() => cb.writeTimestamp(BOTTOM, fresh, 0)).toThrow(InvalidStateError);
    expect(() => cb.writeTimestamp(BOTTOM, fresh, 0)).toThrow(/writeTimestamp: query 0 of the pool was used earlier in this recording and not reset since/);
    expect(() => cb.writeTimestamp(BOTTOM, fresh, 1)).toThrow(/query 1 of the pool was never reset/);
    cb.resetQueryPool(fresh, 0, 1).writeTimestamp(BOTTOM, fresh, 0).end();

    const table: EncodableObject[] = [fresh, occlusion, s.timestamps];
    const e = new CommandEncoder(s.pool.allocateCommandBuffer(), table);
    const refused = (record: (e: CommandEncoder) => unknown, message: RegExp): void => expectEndRefused(e, record, InvalidStateError, message);
    refused((r) => r.vkCmdBeginQuery(1, 0, 0).vkCmdEndQuery(1, 0), /vkCmdBeginQuery: query 0 of the pool was never reset since the pool was created/);
    refused((r) => r.vkCmdWriteTimestamp(TOP, 0, 1), /vkCmdWriteTimestamp: query 1 of the pool was never reset/);
    refused((r) => r.vkCmdWriteTimestamp(TOP, 0, 0).vkCmdWriteTimestamp(BOTTOM, 0, 0), /command 1 of the stream: vkCmdWriteTimestamp: query 0 of the pool was used earlier in this recording and not reset since/);
    refused((r) => r.vkCmdResetQueryPool(1, 0, 1).vkCmdBeginQuery(1, 0, 0).vkCmdEndQuery(1, 0).vkCmdBeginQuery(1, 0, 0).vkCmdEndQuery(1, 0), /command 3 of the stream: vkCmdBeginQuery: query 0 of the pool was used earlier in this recording/);
    refused((r) => r.vkCmdResetQueryPool(2, 0, 2).vkCmdWriteTimestamp2(COPY2, 2, 0).vkCmdWriteTimestamp(BOTTOM, 2, 0), /command 2 of the stream: vkCmdWriteTimestamp: query 0 of the pool was used earlier/);
    // Reset, used, reset, used again: accepted; so is a query a recording before this one reset (query 0 of `fresh`, per call above).
    expect(e.begin().vkCmdResetQueryPool(1, 0, 1).vkCmdBeginQuery(1, 0, 0).vkCmdEndQuery(1, 0).vkCmdResetQueryPool(1, 0, 1).vkCmdBeginQuery(1, 0, 0).vkCmdEndQuery(1, 0).end()).toBe(6);
    expect(e.begin().vkCmdWriteTimestamp(TOP, 0, 0).end()).toBe(1);
  });

  it('(VK-CE-13) vkCmdBlitImage of a format without BLIT_DST, or LINEAR from a format without SAMPLED_IMAGE_FILTER_LINEAR, is refused at end() before any Vulkan call', () => {
    const { pd } = instanceAndDevice();
    const vk = vulkanCommands(open[0]!);
    const handle = vk.vkEnumeratePhysicalDevices(vk.instanceHandle!).pPhysicalDevices[0]!;
    const features = (format: number) => vk.vkGetPhysicalDeviceFormatProperties(handle, format).pFormatProperties.optimalTilingFeatures;
    const s = objects(pd, false);
    const image = (format: Format, usage: number) => {
      const i = s.dev.createImage({ format, extent: { width: 8, height: 8 }, usage });
      i.bindMemory(s.dev.allocateMemory(i.memoryRequirements.size, pd.requireMemoryType(i.memoryRequirements.memoryTypeBits, 0)));
      return i;
    };
    // Integer formats are never filtered linearly; a shared-exponent format is no blit destination on lavapipe.
    expect(features(Format.R8G8B8A8_UINT) & FILTER_LINEAR).toBe(0);
    expect(features(Format.E5B9G9R9_UFLOAT_PACK32) & BLIT_DST).toBe(0);
    const unorm = image(Format.R8G8B8A8_UNORM, 0x1 | 0x2);
    const uint = image(Format.R8G8B8A8_UINT, 0x1 | 0x2);
    const shared = image(Format.E5B9G9R9_UFLOAT_PACK32, 0x1 | 0x2);
    const layers = { aspectMask: 1, mipLevel: 0, baseArrayLayer: 0, layerCount: 1 };
    const region = [{ srcSubresource: layers, srcOffsets: [{ x: 0, y: 0, z: 0 }, { x: 8, y: 8, z: 1 }], dstSubresource: layers, dstOffsets: [{ x: 0, y: 0, z: 0 }, { x: 4, y: 4, z: 1 }] }];
    const e = new CommandEncoder(s.pool.allocateCommandBuffer(), [unorm, uint, shared]);
    const blit = (src: number, dst: number, filter: number) => e.begin().vkCmdBlitImage(src, 6, dst, 7, 1, region, filter).end();
    expect(() => blit(1, 1, 1)).toThrow(InvalidArgumentError);
    expect(() => blit(1, 1, 1)).toThrow(/vkCmdBlitImage: VK_FILTER_LINEAR needs VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT, which srcImage's format 41 lacks/);
    expect(() => blit(0, 2, 0)).toThrow(/vkCmdBlitImage: dstImage's format 123 has no VK_FORMAT_FEATURE_BLIT_DST_BIT on this device/);
    expect(blit(1, 1, 0)).toBe(1);
    expect(blit(0, 0, 1)).toBe(1);
  });
});
