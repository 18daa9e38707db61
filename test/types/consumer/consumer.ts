// A new user's program, written from the README: test/types/published-types.test.ts type-checks it
// against the published declarations (strict, nodenext, skipLibCheck off), with each @types/node
// and without one. It is never run, so it uses nothing but the package (no process, no console).
// The @ts-expect-error lines are what the published types must refuse.
import { loaderLog, openxr, vulkan, InvalidArgumentError, type LogRecord, type PackageErrorCode } from 'khronos-loader';
import {
  createLoader,
  runFrameLoop,
  simulatedRuntime,
  xrMakeVersion,
  xrVersionString,
  FRAME_SPACE_FLOATS,
  POSE_FLOATS,
  VIEW_FLOATS,
  XR_API_VERSION_1_0,
  XR_API_VERSION_1_1,
  type ActionSet,
  type Instance as XrInstance,
  type Session,
  type SessionStateName,
  type Space,
  type XrVersionParts,
} from 'khronos-loader/openxr';
import {
  createLoader as createVulkanLoader,
  vkMakeApiVersion,
  vkVersionString,
  AccessFlags,
  BufferUsageFlags,
  CommandPoolCreateFlags,
  DescriptorType,
  Format,
  ImageLayout,
  MemoryPropertyFlags,
  PipelineStageFlags,
  QueueFlags,
  ShaderStageFlags,
  VK_API_VERSION_1_1,
  type Device,
  type VkVersionParts,
} from 'khronos-loader/vulkan';

const seen: unknown[] = [];
function use(...values: unknown[]): void {
  seen.push(...values);
}

// The OpenXR frame loop.
export async function frameLoop(): Promise<void> {
  const manifest: string = simulatedRuntime();
  const instance = createLoader({ runtime: manifest }).createInstance({
    applicationName: 'app',
    apiVersion: XR_API_VERSION_1_1,
    enabledExtensionNames: ['XR_MND_headless'],
  });
  const session = instance.createSession(instance.getSystem('head-mounted-display'), { headless: true });
  session.on('stateChanged', (state: SessionStateName) => use(state));
  session.once('interactionProfileChanged', (event) => use(event.type));
  session.off('stateChanged', use);
  // @ts-expect-error: a Session emits only its own events
  session.on('no-such-event', use);
  const local = session.createReferenceSpace('local');
  const head = session.createReferenceSpace('view');
  const headPose = new Float32Array(POSE_FLOATS);
  const views = new Float32Array(session.viewCount() * VIEW_FLOATS);
  const stats = await runFrameLoop(session, {
    durationMs: 3000,
    onFrame(frame) {
      session.locateViews(local, frame.predictedDisplayTime, views);
      head.locate(local, frame.predictedDisplayTime, headPose);
    },
  });
  const query = session.createFrameQuery({ spaces: [[head, local]], views: { space: local } });
  const out = new Float32Array(query.length);
  query.run(0n, out);
  use(stats.rendered, out[query.spaceOffset(0) + 1], FRAME_SPACE_FLOATS);
  versions(instance);
  instance.destroy();
}

// Versions a person reads.
function versions(instance: XrInstance): void {
  const { runtimeName, runtimeVersion } = instance.getProperties();
  const v: XrVersionParts = runtimeVersion;
  const text: string = v.text;
  const parts: [number, number, number] = [v.major, v.minor, v.patch];
  const raw: bigint = v.packed;
  const made: bigint = xrMakeVersion(1, 1, 0);
  const shown: string = xrVersionString(XR_API_VERSION_1_0);
  use(runtimeName, text, parts, raw, made, shown, xrVersionString(made));
}

// What users must not reach or set.
export function boundaries(session: Session, set: ActionSet, space: Space, device: Device): void {
  // @ts-expect-error: the session a set is attached to is read-only
  set.attachedSession = session;
  // @ts-expect-error: event dispatch is internal
  session._dispatch;
  // @ts-expect-error: handles are made by their parents, not by hand
  device.adopt;
  // @ts-expect-error: the live native handle is internal
  device.liveHandle;
  // @ts-expect-error: Device.create is internal
  use(space, Object.keys(Object.getPrototypeOf(device)), (device.constructor as typeof Device).create);
}

// The Vulkan compute snippet, with named constants.
export async function compute(spirvWords: Uint32Array, params: Uint32Array, n: number): Promise<void> {
  const instance = createVulkanLoader().createInstance({ applicationName: 'app', apiVersion: VK_API_VERSION_1_1 });
  const gpu = instance.enumeratePhysicalDevices()[0];
  if (gpu === undefined) return;
  const apiVersion: VkVersionParts = gpu.properties.apiVersion;
  use(apiVersion.text, apiVersion.major, apiVersion.packed, vkVersionString(vkMakeApiVersion(0, 1, 3, 0)));
  const family = gpu.queueFamilies.findIndex((q) => (q.queueFlags & QueueFlags.COMPUTE) !== 0);
  const device = gpu.createDevice({ queueCreateInfos: [{ queueFamilyIndex: family, queuePriorities: [1] }] });
  const buffer = device.createBuffer({ size: 4 * n, usage: BufferUsageFlags.STORAGE_BUFFER | BufferUsageFlags.TRANSFER_DST });
  const memory = device.allocateMemory(
    buffer.memoryRequirements.size,
    gpu.findMemoryType(buffer.memoryRequirements.memoryTypeBits, MemoryPropertyFlags.HOST_VISIBLE | MemoryPropertyFlags.HOST_COHERENT),
  );
  buffer.bindMemory(memory);
  const data = new Float32Array(memory.map());
  const setLayout = device.createDescriptorSetLayout([{ binding: 0, descriptorType: DescriptorType.STORAGE_BUFFER, stageFlags: ShaderStageFlags.COMPUTE }]);
  const set = device.createDescriptorPool(1, [{ type: DescriptorType.STORAGE_BUFFER, descriptorCount: 1 }]).allocateSet(setLayout);
  set.writeBuffers([{ binding: 0, descriptorType: DescriptorType.STORAGE_BUFFER, buffer }]);
  // The README's shape: one object spread into both bindings keeps the constants' types.
  const storage = { descriptorType: DescriptorType.STORAGE_BUFFER, stageFlags: ShaderStageFlags.COMPUTE };
  device.createDescriptorSetLayout([{ binding: 0, ...storage }, { binding: 1, ...storage }]);
  // @ts-expect-error: a descriptor type is one of VkDescriptorType's values
  device.createDescriptorSetLayout([{ binding: 0, descriptorType: 12345, stageFlags: ShaderStageFlags.COMPUTE }]);
  const layout = device.createPipelineLayout([setLayout], [{ stageFlags: ShaderStageFlags.COMPUTE, offset: 0, size: 8 }]);
  const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(spirvWords) });
  const cb = device.createCommandPool(family, CommandPoolCreateFlags.TRANSIENT).allocateCommandBuffer();
  cb.begin()
    .bindPipeline(pipeline)
    .bindDescriptorSet(layout, set)
    .pushConstants(layout, ShaderStageFlags.COMPUTE, 0, params)
    .pipelineBarrier(PipelineStageFlags.COMPUTE_SHADER, PipelineStageFlags.HOST, AccessFlags.SHADER_WRITE, AccessFlags.HOST_READ)
    .dispatch(Math.ceil(n / 256))
    .end();
  const fence = device.createFence();
  device.queue(family).submit(cb, fence);
  await fence.wait();
  use(data[0], Format.R8G8B8A8_UNORM, ImageLayout.GENERAL);
  instance.destroy();
}

// Discovery and the log.
export function discovery(): void {
  const { runtime, apiLayers, diagnostics } = openxr.discover();
  const { drivers, layers } = vulkan.discover();
  loaderLog.on('record', (r: LogRecord) => use(r.level, r.source, r.message));
  const code: PackageErrorCode = 'KL_INVALID_ARGUMENT';
  use(runtime?.manifestPath, apiLayers.length, diagnostics, drivers, layers, code, InvalidArgumentError);
}
