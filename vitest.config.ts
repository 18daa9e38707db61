import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const lib = (file: string): string => fileURLToPath(new URL(`./lib/${file}`, import.meta.url));

export default defineConfig({
  // The examples import the package by name (as tsconfig's paths map it), tests import them.
  resolve: {
    alias: [
      { find: /^khronos-loader$/, replacement: lib('index.ts') },
      { find: /^khronos-loader\/openxr$/, replacement: lib('openxr/index.ts') },
      { find: /^khronos-loader\/vulkan$/, replacement: lib('vulkan/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Native builds (test components, the addon) happen once, before any test file runs.
    globalSetup: ['test/setup/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
});
