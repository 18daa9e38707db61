// The test addon (test/native/test_hooks, built by test/setup/global-setup.ts): hooks only the
// tests need, which the product addon does not ship. Loaded after the product addon and pointed
// at it, so its hooks reach the product's native paths.
import { createRequire } from 'node:module';
import path from 'node:path';
import { addonBinaryPath, loadNativeAddon } from '../../lib/core/native/load.js';
import { testNativeDir } from './paths.js';

export interface TestHooks {
  useLoaderAddon(path: string): void;
  /** Emits a record through the product addon's native log path, as loader code does. */
  emitLog(level: number, source: string, message: string): void;
}

let hooks: TestHooks | undefined;

export function loadTestHooks(): TestHooks {
  if (hooks === undefined) {
    loadNativeAddon();
    const loaded = createRequire(import.meta.url)(path.join(testNativeDir, 'test_hooks/kl_test_hooks.node')) as TestHooks;
    loaded.useLoaderAddon(addonBinaryPath());
    hooks = loaded;
  }
  return hooks;
}
