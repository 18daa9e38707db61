import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files whose assertions depend on timing (frame pacing, event-loop lag): they run in their own
 * project after every other file, one at a time, so pack, prebuildify, doctor and bench children
 * of other files do not load the machine while they measure.
 */
const timingSensitive = [
  'test/openxr-api/frame-loop-30s.test.ts',
  'test/simxr/runtime.test.ts',
  'test/openxr-api/vulkan-frame-loop-10s.test.ts',
  'test/openxr-native/vulkan-process-loader-monado-10s.test.ts',
  'test/faults/soak-short.test.ts',
];

const timeouts = { testTimeout: 60_000, hookTimeout: 300_000 };

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
    projects: [
      {
        resolve,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...timingSensitive],
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
    ],
  },
});
