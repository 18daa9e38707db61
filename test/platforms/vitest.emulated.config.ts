// The OpenXR tests that need neither a Debian component nor a test/native component, and the
// Vulkan trampoline test with the few test/native components it needs built for the target, run by scripts/test-platforms.ts under an emulated Node
// (linux-arm64 under qemu-user) against the prebuild in prebuilds/<platform>-<arch>/
// (PREBUILDS_ONLY=1 keeps node-gyp-build away from the host's build/Release). Worker threads, not
// forks: an emulated process cannot start another emulated process without binfmt_misc.
// Left out, and why: test/simxr/simulated-runtime.test.ts (about the source checkout's
// build/Release); tests that spawn child processes (same reason as above); and by name, below,
// a test that sets SIMXR_* in process.env for the runtime's getenv (a worker thread's
// process.env is its own copy) and one that counts 1 ms timer ticks (an emulated CPU is too slow
// for its bound; it says nothing about the binary).
import { defineConfig } from 'vitest/config';
import { resolve } from '../../vitest.config.js';

const EMULATED_TEST_FILES = [
  'test/openxr-api/api.test.ts',
  'test/openxr-api/public-surface.test.ts',
  'test/openxr-api/workers.test.ts',
  // The AArch64 generic trampolines, with test/native's Vulkan test driver and layers and the
  // call probe cross-built for the emulated CPU (KL_TEST_NATIVE_DIR, by scripts/test-platforms.ts).
  'test/vulkan-native/unknown-trampolines.test.ts',
];

const LEFT_OUT_BY_NAME = ['System lists two views at the configured resolution', 'timers keep running while it waits'];

export default defineConfig({
  resolve,
  test: {
    include: EMULATED_TEST_FILES,
    testNamePattern: new RegExp(`^(?!.*(${LEFT_OUT_BY_NAME.join('|')}))`),
    pool: 'threads',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
