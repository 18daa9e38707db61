// Copies of test/native's topology driver (kl_vk_driver_topology) for the physical-device
// differentials: each copy reads its devices from "<library>.topology" beside it.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { vkDriverManifest } from '../unit/vulkan/fixtures.js';
import { testNativeDir } from './paths.js';

export const topologyDriver = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_topology.so');

/** A copy of the topology driver in `dir` with these lines in its topology file; returns its manifest. */
export function topologyDriverCopy(dir: string, lines: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  const lib = path.join(dir, 'libkl_vk_driver_topology.so');
  copyFileSync(topologyDriver, lib);
  writeFileSync(`${lib}.topology`, `${lines.join('\n')}\n`);
  const manifest = path.join(dir, 'driver.json');
  writeFileSync(manifest, vkDriverManifest(lib));
  return manifest;
}
