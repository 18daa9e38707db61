// The native Vulkan core on the NVIDIA driver of the device machine (no Khronos loader involved):
// instance, physical devices, a device and queue per GPU, where device commands point, unload.
// Here:   npm run build && mkdir -p build/gpu && xz -T2 -c "$(readlink -f "$(command -v node)")" > build/gpu/node.xz
// There (device run with carry build/gpu, build/Release, dist, node_modules/node-gyp-build):
//   sh bench/vulkan-gpu-run.sh    (prints and writes $OUT/gpu-check.txt)
import { readFileSync } from 'node:fs';
import { createInstanceFromPlan, instanceExtensionsOfPlan } from '../dist/vulkan/api/index.js';
import { loadNativeAddon } from '../dist/core/native/load.js';

loadNativeAddon().setLogHandler((level, source, message) => console.log(`[log ${level} ${source}] ${message}`));
const manifest = process.argv[2];
const icd = JSON.parse(readFileSync(manifest, 'utf8')).ICD;
console.log('manifest', manifest, JSON.stringify(icd));
const plan = {
  drivers: [{ manifestPath: manifest, libraryPath: icd.library_path, apiVersion: 0, isPortabilityDriver: false, reason: 'gpu' }],
  layers: [], enabledExtensionNames: [], deviceFilters: {}, disableInstanceExtensionFilter: false, decisions: [],
};
const maps = (s) => [...new Set(readFileSync('/proc/self/maps', 'utf8').split('\n').filter((l) => l.includes(s)).map((l) => l.slice(l.indexOf('/'))))];
const owner = (a) => { for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) { const [r, , , , , f] = line.split(/\s+/); if (!r || !f) continue; const [lo, hi] = r.split('-').map((h) => BigInt('0x' + h)); if (a >= lo && a < hi) return f; } };
console.log('instance extensions:', instanceExtensionsOfPlan(plan).join(' '));
const t0 = process.hrtime.bigint();
const instance = createInstanceFromPlan(plan, { applicationName: 'kl-gpu', apiVersion: (1 << 22) | (3 << 12), enabledExtensionNames: ['VK_EXT_debug_utils'], collectCreateMessages: true });
console.log('vkCreateInstance ms', Number(process.hrtime.bigint() - t0) / 1e6);
for (const pd of instance.enumeratePhysicalDevices()) {
  const p = pd.properties;
  console.log('physical device', p.deviceName, 'vendor 0x' + p.vendorID.toString(16), 'device 0x' + p.deviceID.toString(16), 'type', p.deviceType,
    'api', `${p.apiVersion >>> 22}.${(p.apiVersion >>> 12) & 0x3ff}.${p.apiVersion & 0xfff}`, 'driverVersion 0x' + p.driverVersion.toString(16));
  const family = pd.queueFamilies.findIndex((q) => (q.queueFlags & 2) !== 0);
  const device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: family, queuePriorities: [1] }] });
  const queue = device.getQueue(family, 0);
  console.log('  device', device.handle.toString(16), 'queue', queue.toString(16));
  for (const c of ['vkQueueWaitIdle', 'vkCmdDispatch', 'vkGetDeviceQueue', 'vkCreateBuffer']) console.log('  ', c, '->', owner(device.getDeviceProcAddr(c)));
  device.destroy();
}
instance.startDebugMessenger();
console.log('messages:', instance.takeDebugMessages().map((m) => `${m.severity} ${m.message}`).join(' | '));
const lib = icd.library_path.split('/').pop();
console.log('mapped before destroy:', maps(lib));
instance.destroy();
console.log('mapped after destroy:', maps(lib));
console.log('OK');
