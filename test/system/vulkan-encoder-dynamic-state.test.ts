// vkCmdPushConstants2, vkCmdSetViewportWithCount, vkCmdSetScissorWithCount and
// vkCmdSetRenderingAttachmentLocations through the command encoder's end() on the real driver
// (Mesa lavapipe, or the one KHRONOS_LOADER_VK_DRIVER_JSON names): each checked in the walk with
// typed errors before any Vulkan call, and recorded where the driver has it.
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, CommandStreamError, Format, VK_API_VERSION_1_3, VK_API_VERSION_1_4, type EncodableObject, type Image, type Instance } from '../../lib/vulkan/index.js';
import { missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { expectEndRefused } from '../helpers/encoder-end.js';

const skip = missingRealDriver();
const W = 16;
const VERTEX = 0x1;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function scene() {
  const probe = realDriverLoader().createInstance({ applicationName: 'kl-encoder-dynamic-state-probe', apiVersion: VK_API_VERSION_1_3 });
  open.push(probe);
  const version = probe.enumeratePhysicalDevices()[0]!.properties.apiVersion;
  // Vulkan 1.4 where the driver has it: vkCmdPushConstants2 is in the device's table then.
  const has14 = version.major > 1 || version.minor >= 4;
  const instance = realDriverLoader().createInstance({ applicationName: 'kl-encoder-dynamic-state-test', apiVersion: has14 ? VK_API_VERSION_1_4 : VK_API_VERSION_1_3 });
  open.push(instance);
  const pd = instance.enumeratePhysicalDevices()[0]!;
  const dev = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } });
  const image = dev.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: W, height: W }, usage: 0x10 });
  image.bindMemory(dev.allocateMemory(image.memoryRequirements.size, pd.requireMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
  const view = dev.createImageView(image);
  const layout = dev.createPipelineLayout([], [{ stageFlags: VERTEX, offset: 0, size: 64 }]);
  const pool = dev.createCommandPool(0);
  // Table slots: 0 image, 1 view, 2 layout.
  const table: EncodableObject[] = [image as Image, view, layout];
  const encoder = new CommandEncoder(pool.allocateCommandBuffer(), table);
  const attachment = { imageView: 1, imageLayout: 2, resolveMode: 0, resolveImageView: null, resolveImageLayout: 0, loadOp: 1, storeOp: 0, clearValue: { color: { float32: [0, 0, 0, 1] } } };
  const rendering = { flags: 0, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: W } }, layerCount: 1, viewMask: 0, colorAttachmentCount: 1, pColorAttachments: [attachment], pDepthAttachment: null, pStencilAttachment: null };
  const refused = (record: (e: CommandEncoder) => unknown, error: Function, message: RegExp): void => expectEndRefused(encoder, record, error, message);
  return { has14, encoder, rendering, refused };
}

const viewport = { x: 0, y: 0, width: W, height: W, minDepth: 0, maxDepth: 1 };
const scissor = { offset: { x: 0, y: 0 }, extent: { width: W, height: W } };
const push = (layout: number | null, offset: number, size: number) => ({ layout, stageFlags: VERTEX, offset, size, pValues: new Uint8Array(size) });

describe.skipIf(skip !== null)('the encoder\'s dynamic state and push constant commands of Vulkan 1.3 and 1.4 on the real driver', () => {
  it('(VK-CE-14) vkCmdSetViewportWithCount and vkCmdSetScissorWithCount are recorded with one viewport and scissor, checked as vkCmdSetViewport / vkCmdSetScissor, before any Vulkan call', () => {
    const { encoder, refused } = scene();
    expect(encoder.begin().vkCmdSetViewportWithCount(1, [viewport]).vkCmdSetScissorWithCount(1, [scissor]).end()).toBe(2);
    refused((e) => e.vkCmdSetViewportWithCount(2, [viewport, viewport]), InvalidArgumentError, /vkCmdSetViewportWithCount: viewportCount must be 1 \(the typed API enables no multiViewport\), got 2/);
    refused((e) => e.vkCmdSetViewportWithCount(1, [{ ...viewport, width: 0 }]), InvalidArgumentError, /vkCmdSetViewportWithCount: width must be above 0 and height not 0, got 0/);
    refused((e) => e.vkCmdSetViewportWithCount(1, [{ ...viewport, maxDepth: 2 }]), InvalidArgumentError, /vkCmdSetViewportWithCount: minDepth and maxDepth must lie in \[0, 1\]/);
    refused((e) => e.vkCmdSetViewportWithCount(1, [{ ...viewport, x: Number.NaN }]), InvalidArgumentError, /vkCmdSetViewportWithCount: the viewport's numbers must be finite/);
    refused((e) => e.vkCmdSetScissorWithCount(2, [scissor, scissor]), InvalidArgumentError, /vkCmdSetScissorWithCount: scissorCount must be 1/);
    refused((e) => e.vkCmdSetScissorWithCount(1, [{ ...scissor, offset: { x: -1, y: 0 } }]), InvalidArgumentError, /vkCmdSetScissorWithCount: the offset must not be negative, got \(-1, 0\)/);
    refused((e) => e.vkCmdSetScissorWithCount(1, [{ offset: { x: 0x7fff_fff0, y: 0 }, extent: { width: 0x100, height: 1 } }]), InvalidArgumentError, /x \+ width and y \+ height must stay below 2\^31/);
    // The Vulkan 1.0 commands keep their messages through the shared checks.
    refused((e) => e.vkCmdSetViewport(0, 1, [{ ...viewport, height: 0 }]), InvalidArgumentError, /vkCmdSetViewport: width must be above 0 and height not 0/);
  });

  it('(VK-CE-14) vkCmdPushConstants2 is checked as vkCmdPushConstants against its layout\'s ranges; recorded where the device has it, refused natively as unavailable where it does not', () => {
    const { has14, encoder, refused } = scene();
    refused((e) => e.vkCmdPushConstants2(push(2, 60, 8)), InvalidArgumentError, /pushConstants/);
    refused((e) => e.vkCmdPushConstants2({ ...push(2, 0, 64), stageFlags: 0x10 }), InvalidArgumentError, /pushConstants/);
    refused((e) => e.vkCmdPushConstants2(push(null, 0, 64)), InvalidArgumentError, /vkCmdPushConstants2: pPushConstantsInfo.layout must be a PipelineLayout/);
    if (has14) {
      expect(encoder.begin().vkCmdPushConstants2(push(2, 0, 64)).end()).toBe(1);
    } else {
      // A Vulkan 1.3 device's table has no vkCmdPushConstants2: the walk accepts the command and the native check refuses the stream (VK-CE-5).
      refused((e) => e.vkCmdPushConstants2(push(2, 0, 64)), CommandStreamError, /command stream refused at byte 0 \(command 0, opcode \d+\): unavailable/);
      expect((() => {
        try {
          encoder.begin().vkCmdPushConstants2(push(2, 0, 64)).end();
        } catch (x) {
          return (x as CommandStreamError).reason;
        }
        return 'recorded';
      })()).toBe('unavailable');
    }
  });

  it('(VK-CE-14) vkCmdSetRenderingAttachmentLocations is checked against the open dynamic rendering and then refused: the typed API enables no dynamicRenderingLocalRead', () => {
    const { rendering, refused } = scene();
    refused((e) => e.vkCmdBeginRendering(rendering).vkCmdSetRenderingAttachmentLocations({ colorAttachmentCount: 2, pColorAttachmentLocations: [0, 1] }).vkCmdEndRendering(), InvalidArgumentError, /pLocationInfo.colorAttachmentCount must be the rendering's 1 colour attachments, got 2/);
    refused((e) => e.vkCmdBeginRendering(rendering).vkCmdSetRenderingAttachmentLocations({ colorAttachmentCount: 1, pColorAttachmentLocations: [0] }).vkCmdEndRendering(), InvalidStateError, /vkCmdSetRenderingAttachmentLocations: needs the dynamicRenderingLocalRead feature/);
  });
});
