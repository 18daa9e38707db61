// A Vulkan loader over Debian's layer folders with Mesa lavapipe as the only driver (real
// discovery, a fixture environment): what the system tests of the typed Vulkan API run on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader, type VulkanLoader } from '../../lib/vulkan/index.js';
import { missingSystemComponent } from './system.js';

export const LAVAPIPE_MANIFEST = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
export const VALIDATION_MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
export const DEVICE_SELECT_MANIFEST = '/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json';

/** Why the lavapipe system tests cannot run (null: they can). */
export const missingLavapipeStack = (): string | null =>
  missingSystemComponent({
    'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST],
    'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': [VALIDATION_MANIFEST],
    'VK_LAYER_MESA_device_select (mesa-vulkan-drivers)': [DEVICE_SELECT_MANIFEST],
  });

let home: string | undefined;

/** createLoader() with HOME in a fresh folder, the system's XDG folders and VK_DRIVER_FILES = lavapipe. */
export function lavapipeLoader(extra: Record<string, string> = {}): VulkanLoader {
  home ??= mkdtempSync(path.join(tmpdir(), 'kl-vkloader-'));
  const env = { HOME: home, XDG_DATA_DIRS: '/usr/share', XDG_CONFIG_DIRS: '/etc/xdg', VK_DRIVER_FILES: LAVAPIPE_MANIFEST, ...extra };
  return createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
}
