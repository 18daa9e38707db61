// The typed Vulkan graphics API refuses, with a typed error before any Vulkan call, what would be
// undefined behaviour (docs/usage.md, "What the typed Vulkan API checks"): draws outside rendering,
// without a pipeline, with a pipeline made for other attachments, with a vertex binding, viewport,
// scissor or index buffer missing, with a destroyed pipeline; indirect draws from a buffer without
// INDIRECT usage or past its end; pipelines whose vertex input or layout does not cover the shaders.
// After each refusal the process is alive and the same command buffer records a good draw.
// Real driver (lavapipe).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, Format, VK_API_VERSION_1_3, type CommandBuffer, type Device, type GraphicsPipeline, type Instance, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { repoRoot } from '../helpers/paths.js';
import { missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver();
const HOST = 0x2 | 0x4;
const VERTEX = 0x1;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function spirv(name: string): Uint32Array {
  const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

function refuses(call: () => unknown, type: typeof InvalidArgumentError | typeof InvalidStateError, message: RegExp): void {
  let thrown: unknown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected ${type.name} matching ${message}`).toBeInstanceOf(type);
  expect((thrown as { code: string }).code).toBe(type === InvalidArgumentError ? 'KL_INVALID_ARGUMENT' : 'KL_INVALID_STATE');
  expect((thrown as Error).message).toMatch(message);
}

function setup(features = { dynamicRendering: true, multiview: true, multiDrawIndirect: true }) {
  const instance = realDriverLoader().createInstance({ applicationName: 'kl-gfx-misuse', apiVersion: VK_API_VERSION_1_3 });
  open.push(instance);
  const pd: PhysicalDevice = instance.enumeratePhysicalDevices()[0]!;
  const device: Device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: features });
  const buffer = (size: number, usage: number) => {
    const b = device.createBuffer({ size, usage });
    b.bindMemory(device.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
    return b;
  };
  const image = (format: number, usage: number) => {
    const i = device.createImage({ format: format as Format, extent: { width: 16, height: 16 }, usage });
    i.bindMemory(device.allocateMemory(i.memoryRequirements.size, pd.requireMemoryType(i.memoryRequirements.memoryTypeBits, 0)));
    return i;
  };
  const color = image(Format.R8G8B8A8_UNORM, 0x10);
  const colorView = device.createImageView(color, { viewType: '2d' });
  const otherColor = image(Format.B8G8R8A8_UNORM, 0x10);
  const otherView = device.createImageView(otherColor);
  const layout = device.createPipelineLayout([], [{ stageFlags: VERTEX, offset: 0, size: 64 }]);
  const vert = device.createShaderModule(spirv('colored.vert.spv'));
  const frag = device.createShaderModule(spirv('colored.frag.spv'));
  const vertexInput = {
    bindings: [{ binding: 0, stride: 24 }],
    attributes: [
      { location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 },
      { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 },
    ],
  };
  // (A device without dynamic rendering cannot make this pipeline: the last test does not use it.)
  const pipeline = features.dynamicRendering
    ? device.createGraphicsPipeline({ layout, stages: { vertex: { module: vert }, fragment: { module: frag } }, vertexInput, rendering: { colorFormats: [Format.R8G8B8A8_UNORM] } })
    : (null as unknown as GraphicsPipeline);
  const vb = buffer(72, 0x80);
  const cb = device.createCommandPool(0).allocateCommandBuffer();
  return { instance, pd, device, buffer, image, color, colorView, otherView, layout, vert, frag, vertexInput, pipeline, vb, cb };
}

function begin(cb: CommandBuffer, view: import('../../lib/vulkan/index.js').ImageView): CommandBuffer {
  return cb.beginRendering({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store' }] });
}

describe.skipIf(skip !== null)('the typed Vulkan graphics API refuses undefined behaviour before Vulkan sees it (VKGFX)', () => {
  it('VKGFX: draws outside rendering, with no pipeline, no vertex buffer, no viewport or scissor, a pipeline for other formats, a destroyed pipeline; each refused, then a good draw records', () => {
    const s = setup();
    const { cb, pipeline, layout, vb } = s;
    cb.begin();
    cb.pushConstants(layout, VERTEX, 0, new Float32Array(16));
    refuses(() => cb.draw(3), InvalidStateError, /draw: not inside a render pass or dynamic rendering/);
    begin(cb, s.colorView);
    refuses(() => begin(cb, s.colorView), InvalidStateError, /already open/);
    refuses(() => cb.endRenderPass(), InvalidStateError, /dynamic rendering is open \(endRendering\(\)\)/);
    refuses(() => cb.draw(3), InvalidStateError, /draw: no graphics pipeline is bound/);
    cb.bindPipeline(pipeline);
    refuses(() => cb.draw(3), InvalidStateError, /draw: the pipeline reads vertex binding 0 and no vertex buffer is bound there/);
    cb.bindVertexBuffers(0, [vb]);
    refuses(() => cb.draw(3), InvalidStateError, /draw: no viewport is set/);
    cb.setViewport(0, 0, 16, 16);
    refuses(() => cb.draw(3), InvalidStateError, /draw: no scissor is set/);
    cb.setScissor(0, 0, 16, 16);
    refuses(() => cb.drawIndexed(3), InvalidStateError, /drawIndexed: no index buffer is bound/);
    cb.draw(3); // everything in place: recorded
    // Commands recorded outside rendering only, and end(), while it is open.
    refuses(() => cb.end(), InvalidStateError, /end: dynamic rendering is open \(endRendering\(\) first\)/);
    refuses(() => cb.pipelineBarrier(0x400, 0x400, 0x100, 0x100), InvalidStateError, /pipelineBarrier: inside dynamic rendering/);
    refuses(() => cb.imageBarrier(s.color, { oldLayout: 'color-attachment-optimal', newLayout: 'general', srcStageMask: 0x400, dstStageMask: 0x400 }), InvalidStateError, /imageBarrier: inside dynamic rendering/);
    expect(cb.isRecording).toBe(true);
    cb.endRendering();
    // A pipeline made for R8G8B8A8 drawing into B8G8R8A8.
    begin(cb, s.otherView);
    refuses(() => cb.draw(3), InvalidStateError, /draw: the bound graphics pipeline was made for dynamic rendering with other attachment formats/);
    cb.endRendering();
    refuses(() => cb.endRendering(), InvalidStateError, /endRendering: no dynamic rendering is open/);
    // Destroyed after binding.
    begin(cb, s.colorView);
    pipeline.destroy();
    refuses(() => cb.draw(3), InvalidStateError, /draw: the bound graphics pipeline was destroyed/);
    cb.endRendering().end();
    expect(cb.isRecording).toBe(false);
    expect(s.device.isDestroyed).toBe(false);
  });

  it('VKGFX: vertex and index buffers need their usage, draws stay inside the index and indirect buffers, indirect buffers need INDIRECT usage', () => {
    const s = setup();
    const { cb, pipeline, layout, vb } = s;
    const storage = s.buffer(256, 0x20);
    const index = s.buffer(12, 0x40);
    const indirect = s.buffer(32, 0x100);
    cb.begin();
    refuses(() => cb.bindVertexBuffers(0, [storage]), InvalidArgumentError, /bindVertexBuffers: buffers\[0\] needs usage 0x80/);
    refuses(() => cb.bindIndexBuffer(storage), InvalidArgumentError, /bindIndexBuffer: buffer needs usage 0x40/);
    refuses(() => cb.bindIndexBuffer(index, 2, 'uint32'), InvalidArgumentError, /offset must be a multiple of 4/);
    begin(cb, s.colorView).bindPipeline(pipeline).bindVertexBuffers(0, [vb]).setViewport(0, 0, 16, 16).setScissor(0, 0, 16, 16).pushConstants(layout, VERTEX, 0, new Float32Array(16));
    cb.bindIndexBuffer(index, 0, 'uint16');
    refuses(() => cb.drawIndexed(7), InvalidArgumentError, /drawIndexed: indices \[0, 7\) of 2 bytes from offset 0 go past the index buffer's size 12/);
    cb.drawIndexed(6);
    refuses(() => cb.drawIndirect(storage, 0, 1), InvalidArgumentError, /drawIndirect: buffer needs usage 0x100/);
    refuses(() => cb.drawIndirect(indirect, 20, 1), InvalidArgumentError, /go past the buffer's size 32/);
    refuses(() => cb.drawIndirect(indirect, 2, 1), InvalidArgumentError, /offset must be a multiple of 4/);
    refuses(() => cb.drawIndirect(indirect, 0, 2, 8), InvalidArgumentError, /stride must be a multiple of 4 and at least 16/);
    cb.drawIndirect(indirect, 0, 2, 16);
    refuses(() => cb.drawIndexedIndirect(indirect, 0, 2), InvalidArgumentError, /go past the buffer's size 32/);
    cb.drawIndexedIndirect(indirect, 0, 1);
    refuses(() => cb.setViewport(0, 0, 0, 16), InvalidArgumentError, /setViewport: width must be above 0/);
    refuses(() => cb.setViewport(0, 0, 16, 16, 0, 2), InvalidArgumentError, /minDepth and maxDepth must lie in \[0, 1\]/);
    refuses(() => cb.copyImageToBuffer(s.color, 'transfer-src-optimal', storage), InvalidArgumentError, /copyImageToBuffer: the region takes 1024 bytes|usage/);
    cb.endRendering().end();
  });

  it('VKGFX: pipelines whose vertex input, layout or rendering does not fit the shaders are refused before vkCreateGraphicsPipelines; beginRendering checks its attachments', () => {
    const s = setup();
    const { device, layout, vert, frag, vertexInput } = s;
    const stages = { vertex: { module: vert }, fragment: { module: frag } };
    const rendering = { colorFormats: [Format.R8G8B8A8_UNORM] };
    refuses(
      () => device.createGraphicsPipeline({ layout, stages, vertexInput: { bindings: vertexInput.bindings, attributes: [vertexInput.attributes[0]!] }, rendering }),
      InvalidArgumentError,
      /the vertex shader reads input location 1, and options.vertexInput.attributes provides no attribute at that location/,
    );
    refuses(() => device.createGraphicsPipeline({ layout: device.createPipelineLayout([]), stages, vertexInput, rendering }), InvalidArgumentError, /push constants take bytes \[0, 64\); byte 0 is in no push-constant range of the layout for VERTEX/);
    refuses(() => device.createGraphicsPipeline({ layout, stages: { vertex: { module: frag } }, vertexInput, rendering }), InvalidArgumentError, /is not a vertex shader \(execution model 4, Vertex is 0\)/);
    refuses(() => device.createGraphicsPipeline({ layout, stages, vertexInput }), InvalidArgumentError, /needs renderPass \(and subpass\) or rendering/);
    refuses(() => device.createGraphicsPipeline({ layout, stages, vertexInput, rendering, blend: [] }), InvalidArgumentError, /options.blend must hold one entry per colour attachment \(1\)/);
    refuses(() => device.createGraphicsPipeline({ layout, stages, vertexInput, rendering: { colorFormats: [Format.D32_SFLOAT] } }), InvalidArgumentError, /is a depth\/stencil format/);
    refuses(() => device.createGraphicsPipeline({ layout, stages, vertexInput, rendering, topology: 'quads' as never }), InvalidArgumentError, /options.topology must be one of 'point-list'/);
    // Images and views
    refuses(() => device.createImage({ format: Format.D32_SFLOAT, extent: { width: 4, height: 4 }, usage: 0x10 }), InvalidArgumentError, /a depth\/stencil format cannot have usage COLOR_ATTACHMENT/);
    refuses(() => device.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: 4, height: 4 }, usage: 0x10, mipLevels: 4 }), InvalidArgumentError, /mipLevels must be at most 3/);
    refuses(() => device.createImageView(s.color, { viewType: '2d', layerCount: 2 }), InvalidArgumentError, /the layers \[0, 2\) must lie inside the image's 1/);
    refuses(() => device.createImageView(s.color, { viewType: '3d' }), InvalidArgumentError, /a '3d' view cannot be made of a 2d image/);
    refuses(() => device.createImageView(s.color, { aspect: 'depth' }), InvalidArgumentError, /options.aspect 'depth' is not an aspect of the image's format/);
    // A view needs its image bound to memory (VUID-VkImageViewCreateInfo-image-01020); one whose image's memory is destroyed since is refused at beginRendering.
    const unbound = device.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: 4, height: 4 }, usage: 0x10 });
    refuses(() => device.createImageView(unbound), InvalidStateError, /createImageView: image: the image has no memory bound/);
    const lost = s.image(Format.R8G8B8A8_UNORM, 0x10);
    const lostView = device.createImageView(lost);
    lost.memory!.destroy();
    s.cb.begin();
    refuses(() => begin(s.cb, lostView), InvalidStateError, /the image's memory was destroyed/);
    refuses(() => s.cb.beginRendering({ colorAttachments: [{ view: s.colorView, loadOp: 'clear', storeOp: 'store' }], renderArea: { width: 32, height: 16 } }), InvalidArgumentError, /render area \[0, 0, 32x16\] is not inside attachment 0's 16x16/);
    refuses(() => s.cb.beginRendering({ colorAttachments: [{ view: s.colorView, loadOp: 'clear', storeOp: 'store' }], viewMask: 0b11 }), InvalidArgumentError, /attachment 0's view has 1 layer\(s\), the rendering needs 2/);
    // A depth image: no colour clear; the encoder's barriers are of the colour aspect, so it refuses one (per call records it with the depth aspect).
    const depth = s.image(Format.D32_SFLOAT, 0x20 | 0x2);
    refuses(() => s.cb.clearColorImage(depth, 'general', 0, 0, 0, 0), InvalidArgumentError, /clearColorImage: image must be an image of a colour format/);
    s.cb.imageBarrier(depth, { oldLayout: 'undefined', newLayout: 'depth-attachment-optimal', srcStageMask: 0x1, dstStageMask: 0x100 });
    s.cb.end();
    const encoder = new CommandEncoder(s.device.createCommandPool(0).allocateCommandBuffer(), [depth]);
    encoder.begin(0);
    refuses(() => encoder.imageBarrier(encoder.slot(depth), { oldLayout: 'undefined', newLayout: 'general', srcStageMask: 0x1, dstStageMask: 0x1 }), InvalidArgumentError, /the encoder records barriers of colour images/);
    refuses(() => encoder.clearColorImage(encoder.slot(depth), 'general', 0, 0, 0, 0), InvalidArgumentError, /clearColorImage: the image has a depth\/stencil format/);
    expect(s.device.isDestroyed).toBe(false);
  });

  it('VKGFX: without the dynamicRendering and multiview features, dynamic rendering and view masks are refused (the driver would see undefined behaviour)', () => {
    const s = setup({ dynamicRendering: false, multiview: false, multiDrawIndirect: false });
    refuses(() => s.device.createGraphicsPipeline({ layout: s.layout, stages: { vertex: { module: s.vert } }, vertexInput: s.vertexInput, rendering: { colorFormats: [] } }), InvalidStateError, /needs the dynamicRendering feature/);
    refuses(
      () => s.device.createRenderPass({ attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'general' }], subpasses: [{ colorAttachments: [{ attachment: 0 }] }], viewMask: 0b11 }),
      InvalidStateError,
      /needs the multiview feature/,
    );
    s.cb.begin();
    refuses(() => begin(s.cb, s.colorView), InvalidStateError, /beginRendering: the device was created without the dynamicRendering feature/);
    refuses(() => s.cb.drawIndirect(s.buffer(64, 0x100), 0, 2), InvalidStateError, /drawCount above 1 needs the multiDrawIndirect feature/);
    s.cb.end();
  });
});
