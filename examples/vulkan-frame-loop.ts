// An OpenXR session that renders through Vulkan, from Node: the Vulkan instance and device are
// created by the runtime (XR_KHR_vulkan_enable2) through khronos-loader's own Vulkan loader, each
// eye's swapchain image is cleared to a colour that changes every frame, and the frame's
// projection layer goes to xrEndFrame. Runs 3 s on the simulated runtime that ships with the
// package (which also reports the centre pixel of every eye image it received: checked at the end).
//
//   npx tsx examples/vulkan-frame-loop.ts
//
// Point XR_RUNTIME_JSON at another runtime to run there; VK_DRIVER_FILES picks the Vulkan driver.
import { createLoader, drainSubmittedPixels, runFrameLoop, simulatedRuntime, VIEW_FLOATS, type ProjectionLayer, type Swapchain } from 'khronos-loader/openxr';
import { createLoader as createVulkanLoader, provideProcessVulkanLoader, publishVulkanPlan, AccessFlags, Format, PipelineStageFlags, type ImageBarrier } from 'khronos-loader/vulkan';

process.env.XR_RUNTIME_JSON ??= simulatedRuntime();

const SIZE = 256;

// Before the runtime is loaded: this package's loader becomes the process's libvulkan.so.1, so a
// runtime that calls the libvulkan it links against (Monado) reaches this loader too.
// Such a runtime also makes its own Vulkan instance while xrCreateInstance runs: publish the plan first.
provideProcessVulkanLoader();
const vulkanLoader = createVulkanLoader();
publishVulkanPlan(vulkanLoader.planInstance());
const instance = createLoader().createInstance({ applicationName: 'vulkan-frame-loop example', enabledExtensionNames: ['XR_KHR_vulkan_enable2'] });
const system = instance.getSystem('head-mounted-display');
// The runtime creates VkInstance and VkDevice with our vkGetInstanceProcAddr: the Vulkan loader's
// plan (drivers, layers) is published for it, and the results come back as typed Vulkan objects.
const vulkan = instance.createVulkanGraphics(system, { loader: vulkanLoader, applicationName: 'vulkan-frame-loop example' });
console.log(`Vulkan device: ${vulkan.physicalDevice.properties.deviceName}`);
const session = instance.createSession(system, { graphics: { vulkan } });
const local = session.createReferenceSpace('local');

const format = session.swapchainFormats().includes(Format.R8G8B8A8_UNORM) ? Format.R8G8B8A8_UNORM : (session.swapchainFormats()[0] as number);
const eyes: Swapchain[] = [0, 1].map(() => session.createSwapchain({ format, width: SIZE, height: SIZE, usage: ['color-attachment', 'transfer-dst'] }));

// Everything the frame loop touches is made here, once: it allocates nothing per frame.
const views = new Float32Array(2 * VIEW_FLOATS); // locateViews writes each eye's pose and fov here
const layers: ProjectionLayer[] = [
  {
    type: 'projection',
    space: local,
    views: eyes.map((swapchain, eye) => ({
      pose: views.subarray(eye * VIEW_FLOATS, eye * VIEW_FLOATS + 7),
      fov: views.subarray(eye * VIEW_FLOATS + 7, (eye + 1) * VIEW_FLOATS),
      swapchain,
    })),
  },
];
const pool = vulkan.device.createCommandPool(vulkan.queueFamilyIndex);
const slots = [0, 1, 2].map(() => ({ commandBuffer: pool.allocateCommandBuffer(), fence: vulkan.device.createFence(true) }));
// A waited image is in COLOR_ATTACHMENT_OPTIMAL and must be released in it; the clear needs TRANSFER_DST.
const toTransferDst: ImageBarrier = {
  oldLayout: 'color-attachment-optimal',
  newLayout: 'transfer-dst-optimal',
  srcStageMask: PipelineStageFlags.COLOR_ATTACHMENT_OUTPUT,
  dstStageMask: PipelineStageFlags.TRANSFER,
  srcAccessMask: AccessFlags.COLOR_ATTACHMENT_WRITE,
  dstAccessMask: AccessFlags.TRANSFER_WRITE,
};
const toColorAttachment: ImageBarrier = {
  oldLayout: 'transfer-dst-optimal',
  newLayout: 'color-attachment-optimal',
  srcStageMask: PipelineStageFlags.TRANSFER,
  dstStageMask: PipelineStageFlags.COLOR_ATTACHMENT_OUTPUT,
  srcAccessMask: AccessFlags.TRANSFER_WRITE,
  dstAccessMask: AccessFlags.COLOR_ATTACHMENT_WRITE,
};
let frameNumber = 0;

const stats = await runFrameLoop(session, {
  durationMs: 3000,
  onFrame(frame) {
    if (frame.predictedDisplayTime !== 0n) session.locateViews(local, frame.predictedDisplayTime, views);
    const slot = slots[frameNumber % slots.length] as (typeof slots)[number];
    if (!slot.fence.signaled) vulkan.queue.waitIdle(); // the GPU fell three frames behind
    slot.fence.reset();
    const cb = slot.commandBuffer.begin(1 /* ONE_TIME_SUBMIT */);
    for (const [eye, swapchain] of eyes.entries()) {
      const image = swapchain.images[swapchain.acquire()];
      if (image === undefined || !swapchain.wait()) throw new Error('no swapchain image');
      // Left eye red, right eye blue, both pulsing with the frame number.
      const level = (frameNumber % 90) / 89;
      cb.imageBarrier(image, toTransferDst)
        .clearColorImage(image, 'transfer-dst-optimal', eye === 0 ? level : 0, 0.2, eye === 1 ? level : 0, 1)
        .imageBarrier(image, toColorAttachment);
    }
    cb.end();
    vulkan.queue.submit(cb, slot.fence);
    for (const swapchain of eyes) swapchain.release();
    frameNumber++;
    return layers; // runFrameLoop hands them to endFrame
  },
});
console.log(`${stats.rendered} frames rendered, ${stats.missed} missed`);

// The simulated runtime read back the centre of every eye image it was given.
try {
  const received = drainSubmittedPixels(session);
  console.log(`the runtime received ${received.length / 2} frames; the last left eye was [${received.at(-2)?.bytes.join(', ')}]`);
} catch {
  console.log('(this runtime does not report what it received)');
}
// The session before the Vulkan device it renders with; the Vulkan instance destroys its device.
session.destroy();
vulkan.instance.destroy();
instance.destroy();
