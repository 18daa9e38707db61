import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files whose assertions depend on timing (frame pacing, event-loop lag): they run in their own
 * projects after every other file, one at a time, so pack, prebuildify, doctor and bench children
 * of other files do not load the machine while they measure. The short ones are part of `npm test`
 * ('timing'); the long ones only of `npm run test:all` ('slow-timing', after 'timing').
 */
const timingSensitive = ['test/simxr/runtime.test.ts', 'test/openxr-api/vulkan-frame-loop-10s.test.ts'];
const slowTimingSensitive = [
  'test/openxr-api/frame-loop-30s.test.ts',
  'test/openxr-native/vulkan-process-loader-monado-10s.test.ts',
  'test/faults/soak-short.test.ts',
];

/**
 * The slow suites, left out of `npm test` (the developer's loop) and run by `npm run test:all`
 * (what CI runs) beside the 'main' project as before: the packaging test (packs and installs the
 * tarball, builds the prebuild), the doctor and bench CLIs (many child processes each), the heap
 * measurement of the controllers example, the trampolines under qemu-user and wine, elevation
 * (builds a setuid helper), the Monado differential suite, the package under Bun and Deno.
 */
const slow = [
  'test/packaging/package.test.ts',
  'test/doctor/doctor.test.ts',
  'test/doctor/cli.test.ts',
  'test/doctor/runtimes-cli.test.ts',
  'test/doctor/vulkan-doctor.test.ts',
  'test/bench/bench-cli.test.ts',
  'test/bench/commands.test.ts',
  'test/bench/vulkan-bench.test.ts',
  'test/bench/vulkan-record-bench.test.ts',
  'test/openxr-api/heap-controllers.test.ts',
  'test/vulkan-native/trampolines.test.ts',
  'test/system/elevation.test.ts',
  'test/system/openxr-monado-differential.test.ts',
  'test/runtimes/bun-deno.test.ts',
];

// Under npm run test:sanitize:thread (KHRONOS_LOADER_SANITIZER=thread) the limits are 8 times as long:
// ThreadSanitizer's slowdown on a loaded 2-core machine (THREAD_SANITIZER_SLOWDOWN, test/helpers/sanitizer-env.ts).
const slowdown = process.env.KHRONOS_LOADER_SANITIZER === 'thread' ? 8 : 1;
const timeouts = { testTimeout: 60_000 * slowdown, hookTimeout: 300_000 * slowdown };

const lib = (file: string): string => fileURLToPath(new URL(`./lib/${file}`, import.meta.url));

// The examples import the package by name (as tsconfig's paths map it), tests import them.
export const resolve = {
  alias: [
    { find: /^khronos-loader$/, replacement: lib('index.ts') },
    { find: /^khronos-loader\/openxr$/, replacement: lib('openxr/index.ts') },
    { find: /^khronos-loader\/vulkan$/, replacement: lib('vulkan/index.ts') },
  ],
};

export default defineConfig({
  resolve,
  test: {
    // Native builds (test components, the addon) happen once, before any test file runs.
    globalSetup: ['test/setup/global-setup.ts'],
    reporters: ['default'],
    // Two files at a time at least: vitest's default (one less than the cores) runs a 2-core
    // machine's files one by one, while most of a file's time is spent waiting on child processes.
    // The timing projects still run one file at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `npm test`: main and timing; `npm run test:all`: every project. Projects of one groupOrder
    // run together, the groups one after another.
    projects: [
      {
        resolve,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...slow, ...timingSensitive, ...slowTimingSensitive],
          ...timeouts,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          name: 'slow',
          include: slow,
          ...timeouts,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          name: 'timing',
          include: timingSensitive,
          ...timeouts,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve,
        test: {
          name: 'slow-timing',
          include: slowTimingSensitive,
          ...timeouts,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
