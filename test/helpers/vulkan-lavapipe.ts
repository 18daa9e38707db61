// The real Vulkan driver the system tests run on, and a loader over Debian's layer folders with it
// as the only driver (real discovery, a fixture environment). The driver is the one
// KHRONOS_LOADER_VK_DRIVER_JSON names (a driver manifest: the NVIDIA driver on a GPU machine),
// by default Mesa lavapipe. What needs a Debian component (the validation layer, device_select)
// skips with the reason where it is absent.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader, type VulkanLoader } from '../../lib/vulkan/index.js';
import { missingSystemComponent } from './system.js';

export const LAVAPIPE_MANIFEST = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
export const VALIDATION_MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
export const DEVICE_SELECT_MANIFEST = '/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json';

/** The driver manifest the Vulkan system tests run on: KHRONOS_LOADER_VK_DRIVER_JSON, else lavapipe's. */
export const REAL_DRIVER_MANIFEST = process.env.KHRONOS_LOADER_VK_DRIVER_JSON || LAVAPIPE_MANIFEST;
/** Whether that driver is Mesa lavapipe (its device is "llvmpipe ..."). */
export const ON_LAVAPIPE = path.basename(REAL_DRIVER_MANIFEST).startsWith('lvp_icd');

/** Why there is no real driver to test on (null: there is). */
export const missingRealDriver = (): string | null =>
  missingSystemComponent({
    [ON_LAVAPIPE ? 'Mesa lavapipe (mesa-vulkan-drivers)' : 'the Vulkan driver KHRONOS_LOADER_VK_DRIVER_JSON names']: [REAL_DRIVER_MANIFEST],
  });

/** Why VK_LAYER_KHRONOS_validation cannot be used (null: it can). */
export const missingValidation = (): string | null => missingSystemComponent({ 'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': [VALIDATION_MANIFEST] });

/** Whether VK_LAYER_KHRONOS_validation is installed (for tests that use it when it is there). */
export const hasValidation = (): boolean => existsSync(VALIDATION_MANIFEST);

/** Why VK_LAYER_MESA_device_select cannot be used (null: it can). */
export const missingDeviceSelect = (): string | null => missingSystemComponent({ 'VK_LAYER_MESA_device_select (mesa-vulkan-drivers)': [DEVICE_SELECT_MANIFEST] });

/** Why the real driver with both Debian layers cannot be used (null: it can). */
export const missingRealDriverWithDebianLayers = (): string | null => missingRealDriver() ?? missingValidation() ?? missingDeviceSelect();

/** Why Debian's lavapipe itself with both Debian layers cannot be used (null: it can). */
export const missingLavapipeStack = (): string | null =>
  missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST] }) ?? missingValidation() ?? missingDeviceSelect();

/** The real driver's device name: "llvmpipe ..." on lavapipe, else whatever the driver names it (not blank). */
export const REAL_DEVICE_NAME: RegExp = ON_LAVAPIPE ? /^llvmpipe/ : /\S/;

let home: string | undefined;

/** createLoader() with HOME in a fresh folder, the system's XDG folders and VK_DRIVER_FILES = the real driver. */
export function realDriverLoader(extra: Record<string, string> = {}): VulkanLoader {
  home ??= mkdtempSync(path.join(tmpdir(), 'kl-vkloader-'));
  const env = { HOME: home, XDG_DATA_DIRS: '/usr/share', XDG_CONFIG_DIRS: '/etc/xdg', VK_DRIVER_FILES: REAL_DRIVER_MANIFEST, ...extra };
  return createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
}
