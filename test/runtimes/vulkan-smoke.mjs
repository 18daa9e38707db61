// The typed Vulkan API's smoke suite, run as it is under Node, Bun and Deno (docs/platforms.md,
// "Bun and Deno"): the loader and its pre-instance queries, an instance (with
// VK_LAYER_KHRONOS_validation listening when installed), the physical devices, and a compute
// dispatch of the shipped examples/shaders/saxpy.spv (y = a·x + y; bindings 0 and 1, push
// constants { float a; uint n }, local size 256) whose every element is checked against the same
// float32 arithmetic in JavaScript. Typed errors for misuse, then teardown.
//
//   VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json node|bun|deno run -A test/runtimes/vulkan-smoke.mjs
//
// The driver is whatever discovery finds (VK_DRIVER_FILES above: Mesa lavapipe, whose device name
// is then checked). It prints one line per check and exits 1 when any fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLoader, VK_API_VERSION_1_1, VulkanError } from '../../dist/vulkan/index.js';
import { assert, runChecks } from './harness.mjs';

const VALIDATION = 'VK_LAYER_KHRONOS_validation';
// The Vulkan values this suite uses (VkBufferUsageFlagBits, VkMemoryPropertyFlagBits, ...).
const USAGE_STORAGE_BUFFER = 0x20;
const MEMORY_HOST_VISIBLE_COHERENT = 0x2 | 0x4;
const DESCRIPTOR_STORAGE_BUFFER = 7;
const STAGE_COMPUTE = 0x20;
const QUEUE_COMPUTE = 0x2;
const PIPELINE_STAGE_COMPUTE = 0x800;
const PIPELINE_STAGE_HOST = 0x4000;
const ACCESS_SHADER_WRITE = 0x40;
const ACCESS_HOST_READ = 0x2000;
const SEVERITY_WARNING = 0x100;
const WORKGROUP_SIZE = 256; // local_size_x in saxpy.comp
const N = 100_000; // not a multiple of the work-group size: the shader's bound check is exercised
const A = 2.5;

const onLavapipe = path.basename(process.env.VK_DRIVER_FILES ?? '').startsWith('lvp_icd');
const spirvFile = fileURLToPath(new URL('../../examples/shaders/saxpy.spv', import.meta.url));

let loader;
let instance;
let physicalDevice;
let family;
let device;
let validation = false;

await runChecks(
  'vulkan smoke',
  [
    [
      'VULKAN: the loader finds a driver and answers the pre-instance queries',
      () => {
        loader = createLoader();
        assert.ok(loader.discovery.drivers.length >= 1, 'discovery found a driver');
        validation = loader.enumerateInstanceLayerProperties().some((l) => l.layerName === VALIDATION);
        if (validation) {
          const extensions = loader.enumerateInstanceExtensionProperties(VALIDATION).map((e) => e.extensionName);
          assert.ok(extensions.includes('VK_EXT_debug_utils'), `${VALIDATION} offers VK_EXT_debug_utils (offers ${extensions.join(', ')})`);
        }
      },
    ],
    [
      'VULKAN: an instance is created through the loader, validation in the chain where installed, a debug messenger started',
      () => {
        instance = loader.createInstance({
          applicationName: 'khronos-loader runtimes smoke',
          apiVersion: VK_API_VERSION_1_1,
          enabledLayerNames: validation ? [VALIDATION] : [],
          enabledExtensionNames: ['VK_EXT_debug_utils'],
        });
        assert.equal(instance.enabledLayerNames.includes(VALIDATION), validation, `enabled: ${instance.enabledLayerNames.join(', ')}`);
        instance.startDebugMessenger();
      },
    ],
    [
      'VULKAN: the physical devices are enumerated with their properties, limits, memory types and a compute queue family',
      () => {
        const devices = instance.enumeratePhysicalDevices();
        assert.ok(devices.length >= 1, `${devices.length} physical devices`);
        physicalDevice = devices[0];
        const name = physicalDevice.properties.deviceName;
        assert.match(name, onLavapipe ? /^llvmpipe/ : /\S/);
        assert.ok(physicalDevice.limits.maxComputeWorkGroupCount[0] >= 65535);
        assert.ok(physicalDevice.limits.maxPushConstantsSize >= 128);
        assert.ok(physicalDevice.memoryProperties.memoryHeaps.length > 0);
        assert.ok(physicalDevice.findMemoryType(0xffffffff, MEMORY_HOST_VISIBLE_COHERENT) >= 0);
        family = physicalDevice.queueFamilies.findIndex((f) => (f.queueFlags & QUEUE_COMPUTE) !== 0);
        assert.ok(family >= 0, 'a queue family with VK_QUEUE_COMPUTE_BIT');
      },
    ],
    [
      `VULKAN: saxpy.spv dispatched over ${N} floats computes y = ${A}·x + y exactly as float32 JavaScript does`,
      async () => {
        device = physicalDevice.createDevice({ queueCreateInfos: [{ queueFamilyIndex: family, queuePriorities: [1] }] });
        const bytes = N * 4;
        const hostBuffer = () => {
          const buffer = device.createBuffer({ size: bytes, usage: USAGE_STORAGE_BUFFER });
          const type = physicalDevice.findMemoryType(buffer.memoryRequirements.memoryTypeBits, MEMORY_HOST_VISIBLE_COHERENT);
          assert.ok(type >= 0, 'a host-visible, coherent memory type for a storage buffer');
          buffer.bindMemory(device.allocateMemory(buffer.memoryRequirements.size, type));
          return buffer;
        };
        const x = hostBuffer();
        const y = hostBuffer();
        const hostX = new Float32Array(x.memory.map(), 0, N);
        const hostY = new Float32Array(y.memory.map(), 0, N);
        for (let i = 0; i < N; i++) {
          hostX[i] = (i % 1024) / 1024;
          hostY[i] = ((i * 7) % 1000) / 1000;
        }
        const expected = new Float32Array(N);
        for (let i = 0; i < N; i++) expected[i] = Math.fround(Math.fround(Math.fround(A) * hostX[i]) + hostY[i]);

        const setLayout = device.createDescriptorSetLayout([
          { binding: 0, descriptorType: DESCRIPTOR_STORAGE_BUFFER, stageFlags: STAGE_COMPUTE },
          { binding: 1, descriptorType: DESCRIPTOR_STORAGE_BUFFER, stageFlags: STAGE_COMPUTE },
        ]);
        const set = device.createDescriptorPool(1, [{ type: DESCRIPTOR_STORAGE_BUFFER, descriptorCount: 2 }]).allocateSet(setLayout);
        set.writeBuffers([
          { binding: 0, descriptorType: DESCRIPTOR_STORAGE_BUFFER, buffer: x },
          { binding: 1, descriptorType: DESCRIPTOR_STORAGE_BUFFER, buffer: y },
        ]);
        const layout = device.createPipelineLayout([setLayout], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
        const code = readFileSync(spirvFile);
        const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(new Uint32Array(code.buffer, code.byteOffset, code.byteLength / 4)) });
        const params = new DataView(new ArrayBuffer(8));
        params.setFloat32(0, A, true);
        params.setUint32(4, N, true);

        const cb = device.createCommandPool(family).allocateCommandBuffer();
        cb.begin()
          .bindPipeline(pipeline)
          .bindDescriptorSet(layout, set)
          .pushConstants(layout, STAGE_COMPUTE, 0, params)
          .dispatch(Math.ceil(N / WORKGROUP_SIZE))
          .pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_HOST, ACCESS_SHADER_WRITE, ACCESS_HOST_READ)
          .end();
        const fence = device.createFence();
        device.queue(family, 0).submit(cb, fence);
        assert.equal(await fence.wait(), true, 'the fence signalled');
        let wrong = 0;
        let first = -1;
        for (let i = 0; i < N; i++) {
          if (hostY[i] !== expected[i]) {
            wrong++;
            if (first < 0) first = i;
          }
        }
        assert.equal(wrong, 0, `${wrong} of ${N} elements differ, the first at ${first}: ${hostY[first]} (GPU) vs ${expected[first]} (JavaScript)`);
      },
    ],
    [
      'VULKAN: validation reported no warning or error for all of it',
      () => {
        const messages = instance.takeDebugMessages().filter((m) => m.severity >= SEVERITY_WARNING);
        assert.deepEqual(messages.map((m) => `${m.messageIdName}: ${m.message}`), []);
      },
    ],
    [
      'VULKAN: misuse throws typed errors, never a crash',
      () => {
        assert.throws(() => device.createBuffer({ size: -1, usage: USAGE_STORAGE_BUFFER }), TypeError);
        assert.throws(() => physicalDevice.createDevice({ queueCreateInfos: 'all' }), TypeError);
      },
    ],
    [
      'VULKAN: destroying the instance destroys its devices; calls on them then throw VulkanError',
      () => {
        instance.destroy();
        assert.equal(instance.isDestroyed, true);
        assert.throws(() => device.createFence(), VulkanError);
        instance.destroy(); // a second destroy does nothing
      },
    ],
  ],
  { cleanup: () => instance?.destroy() },
);
