// Where does RSS go over instance create/destroy cycles? (bench/soak.ts: the soak's instance phase grew
// ~6 MiB per 1,000 cycles.) Runs one variant of the cycle N times and prints, before and after:
// RSS, glibc malloc's own accounting (mallinfo2: bytes in use, free bytes kept in the arenas,
// mmapped bytes), RSS again after malloc_trim(0), the JavaScript heap, mapped objects.
//   node --expose-gc --import tsx bench/soak-rss-probe.ts <variant> [cycles]   (KL_PROBE_YIELD=0: no event-loop turns)
// variants: full (loader.createInstance + destroy, 2 pass-through layers, as the soak),
//           plan (loader.planInstance only: discovery and policy in TypeScript),
//           native (createInstanceFromPlan with one plan made up front: the native chain only),
//           native-fresh (the same with a copy of the plan per cycle),
//           dlopen (the addon's NativeLibrary: dlopen + dlclose of the runtime and both layers).
import { readFileSync } from 'node:fs';
import koffi from 'koffi';
import { createLinuxPlatform } from '../lib/core/platform/linux.js';
import { loadNativeAddon } from '../lib/core/native/load.js';
import { createPassthroughLayers } from '../lib/openxr/bundled-layers.js';
import { createInstanceFromPlan } from '../lib/openxr/api/instance.js';
import { createLoader } from '../lib/openxr/loader.js';
import { simulatedRuntime } from '../lib/openxr/simulated-runtime.js';

const variant = process.argv[2] ?? 'full';
const cycles = Number(process.argv[3] ?? 3000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const libc = koffi.load('libc.so.6');
// struct mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost; }
const MallInfo2 = koffi.struct('mallinfo2', {
  arena: 'size_t', ordblks: 'size_t', smblks: 'size_t', hblks: 'size_t', hblkhd: 'size_t',
  usmblks: 'size_t', fsmblks: 'size_t', uordblks: 'size_t', fordblks: 'size_t', keepcost: 'size_t',
});
const mallinfo2 = libc.func('mallinfo2', MallInfo2, []);
const mallocTrim = libc.func('int malloc_trim(size_t pad)');

interface Snapshot { rss: number; inUse: number; freeInArenas: number; mmapped: number; heap: number; maps: number }
function snapshot(): Snapshot {
  gc!();
  const m = mallinfo2() as Record<string, number | bigint>;
  const rss = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * 4096;
  const maps = new Set(readFileSync('/proc/self/maps', 'utf8').split('\n').map((l) => l.split(/\s+/)[5]).filter((f) => f && /\.so/.test(f))).size;
  return { rss, inUse: Number(m.uordblks), freeInArenas: Number(m.fordblks), mmapped: Number(m.hblkhd), heap: process.memoryUsage().heapUsed, maps };
}

const layers = createPassthroughLayers(2);
const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: layers.folder };
const loader = createLoader({ platform: createLinuxPlatform({ env }) });
const request = { applicationName: 'soak', enabledApiLayerNames: layers.names, enabledExtensionNames: ['XR_MND_headless'] };
const plan = loader.planInstance(request);
const addon = loadNativeAddon() as unknown as { NativeLibrary: new (path: string) => { close(): void } };
const libraries = [plan.runtime!.libraryPath, ...plan.apiLayers.map((l) => l.libraryPath)];

const steps: Record<string, () => void> = {
  full: () => loader.createInstance(request).destroy(),
  plan: () => void loader.planInstance(request),
  native: () => createInstanceFromPlan(plan, request).destroy(),
  // The same, with a new copy of the plan each time (as full makes one per cycle).
  'native-fresh': () => createInstanceFromPlan(structuredClone(plan), request).destroy(),
  dlopen: () => {
    for (const l of libraries.map((p) => new addon.NativeLibrary(p))) l.close();
  },
};
const step = steps[variant];
if (!step) throw new Error(`unknown variant ${variant}: ${Object.keys(steps).join(', ')}`);

// KL_PROBE_YIELD=1: a turn of the event loop every 100 cycles (as an application between frames
// or requests has), so N-API finalizers that Node defers to the loop can run; 0: never.
const yieldEvery = process.env.KL_PROBE_YIELD === '0' ? 0 : 100;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
for (let i = 0; i < 50; i++) step(); // warm-up: caches, arenas
await turn();
const before = snapshot();
for (let i = 0; i < cycles; i++) {
  step();
  if (yieldEvery > 0 && i % yieldEvery === yieldEvery - 1) await turn();
}
if (yieldEvery > 0) await turn();
const after = snapshot();
mallocTrim(0);
const trimmed = snapshot();
layers.dispose();

const kib = (b: number): string => `${(b / 1024).toFixed(0)} KiB`;
const per1000 = (d: number): string => `${((d / 1024) * (1000 / cycles)).toFixed(0)} KiB/1000`;
process.stdout.write(
  `${JSON.stringify({
    variant,
    cycles,
    eventLoopTurns: yieldEvery > 0 ? `every ${yieldEvery} cycles` : 'none',
    rss: { before: kib(before.rss), after: kib(after.rss), growth: per1000(after.rss - before.rss), afterTrim: kib(trimmed.rss), growthAfterTrim: per1000(trimmed.rss - before.rss) },
    malloc: { inUseGrowth: per1000(after.inUse - before.inUse), freeInArenasGrowth: per1000(after.freeInArenas - before.freeInArenas), mmappedGrowth: per1000(after.mmapped - before.mmapped) },
    heapGrowth: per1000(after.heap - before.heap),
    maps: [before.maps, after.maps],
  })}\n`,
);
