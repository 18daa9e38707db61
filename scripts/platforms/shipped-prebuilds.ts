// What the published tarball must hold for every platform the package ships a prebuild for
// (docs/platforms.md): the addon and the shared libraries that load beside it. The release
// workflow checks its tarball with scripts/check-pack.ts; the packaging test checks the same list.

export const SHIPPED_PLATFORMS = ['linux-x64', 'linux-arm64', 'win32-x64'] as const;
export type ShippedPlatform = (typeof SHIPPED_PLATFORMS)[number];

/** The files prebuilds/<platform>/ must hold: the product addon and its bundled libraries. */
export function prebuildFiles(platform: ShippedPlatform): string[] {
  const library = (name: string): string => (platform.startsWith('win32') ? `${name}.dll` : `lib${name}.so`);
  return [
    'khronos-loader.node',
    library('khronos_simxr'),
    library('khronos_layer_passthrough'),
    library('khronos_vk_layer_passthrough'),
    ...(platform.startsWith('linux') ? [library('khronos_vulkan_process_loader')] : []),
  ].map((file) => `prebuilds/${platform}/${file}`);
}

/** Every required prebuild file missing from a packed file list, for the platforms named. */
export function missingPrebuildFiles(packed: readonly string[], platforms: readonly ShippedPlatform[] = SHIPPED_PLATFORMS): string[] {
  const have = new Set(packed);
  return platforms.flatMap((platform) => prebuildFiles(platform)).filter((file) => !have.has(file));
}
